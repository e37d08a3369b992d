import { describe, expect, it } from 'vitest';
import { searchMenus } from '../../src/web/staff/shell/menuSearch.ts';
import { menuEntries } from '../../src/web/staff/shell/titles.ts';
import { loadPinyin, plainMatch } from '../../src/web/components/pinyin/usePinyin.ts';

describe('menu search by pinyin (查找菜单)', () => {
  it('finds titles by initials, full pinyin and mixed forms once the rule has loaded', async () => {
    const entries = menuEntries();
    const { pinyinMatcher } = await loadPinyin();
    const match = pinyinMatcher('text');
    const titles = (q: string) => searchMenus(entries, q, 10, match).map((e) => e.title);
    expect(titles('wtfk')[0]).toBe('问题反馈');
    expect(titles('wentifankui')[0]).toBe('问题反馈');
    expect(titles('wtfankui')[0]).toBe('问题反馈');
    expect(titles('rszp')).toContain('人事招聘信息');
    expect(titles('招聘')[0]).toBe('人事招聘信息');
    // before the rule has loaded, characters still match as a substring
    expect(searchMenus(entries, '反馈', 10, plainMatch).map((e) => e.title)).toContain('问题反馈');
    expect(plainMatch('问题反馈', 'wtfk')).toBeNull();
  });
});
