import { describe, expect, it } from 'vitest';
import { MAX_SHOWN, pinyinOptions } from '../../src/web/components/pinyin/pinyinOptions.ts';
import { pinyinMatcher } from '../../src/shared/pinyin.ts';

interface Person {
  id: number;
  name: string;
}

const people: Person[] = Array.from({ length: 500 }, (_, i) => ({ id: i, name: i % 2 ? `张伟${i}` : `李娜${i}` }));
const match = pinyinMatcher('name');
const nameOf = (p: Person) => p.name;

describe('the options of every pinyin picker', () => {
  it('lists the matches of the rule, at most MAX_SHOWN of them, in their order', () => {
    const { filterOptions } = pinyinOptions(match, nameOf, null);
    const shown = filterOptions(people, { inputValue: 'zw' });
    expect(shown).toHaveLength(MAX_SHOWN);
    expect(shown.every((p) => p.name.startsWith('张伟'))).toBe(true);
    expect(shown.map((p) => p.id)).toEqual(
      people
        .filter((p) => p.id % 2)
        .slice(0, MAX_SHOWN)
        .map((p) => p.id),
    );
    expect(filterOptions(people, { inputValue: 'ln49' }).map(nameOf)).toEqual(['李娜490', '李娜492', '李娜494', '李娜496', '李娜498']);
    expect(filterOptions(people, { inputValue: 'wxy' })).toEqual([]);
  });

  it("the chosen option's own text in the box lists everything (up to the cap), as a select does", () => {
    const chosen = people[1];
    const { filterOptions, queryOf } = pinyinOptions(match, nameOf, chosen);
    expect(queryOf(chosen.name)).toBe('');
    expect(queryOf('zw')).toBe('zw');
    expect(filterOptions(people.slice(0, 10), { inputValue: chosen.name })).toHaveLength(10);
  });
});
