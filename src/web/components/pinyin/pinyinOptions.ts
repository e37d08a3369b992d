/**
 * What every pinyin picker does with its options (the generated forms' PinyinSelectInput and the
 * hand-built screens' PinyinPicker): the chosen option's own text in the box lists everything,
 * as a select does; otherwise the options the rule matches, at most MAX_SHOWN of them (typing
 * more narrows a long list of people or companies, and the list stays quick to open).
 */
import type { TextMatcher } from './usePinyin.ts';

export const MAX_SHOWN = 200;

export interface PinyinOptions<O> {
  /** the query an input text stands for ('' when it is the chosen option's own text) */
  queryOf: (input: string) => string;
  /** the Autocomplete's `filterOptions` */
  filterOptions: (options: O[], state: { inputValue: string }) => O[];
}

export function pinyinOptions<O>(match: TextMatcher, textOf: (o: O) => string, selected: O | null): PinyinOptions<O> {
  const queryOf = (input: string) => (selected && input === textOf(selected) ? '' : input);
  return {
    queryOf,
    filterOptions: (options, { inputValue }) => {
      const q = queryOf(inputValue);
      const shown: O[] = [];
      for (const o of options) {
        if (!match(textOf(o), q)) continue;
        shown.push(o);
        if (shown.length === MAX_SHOWN) break;
      }
      return shown;
    },
  };
}
