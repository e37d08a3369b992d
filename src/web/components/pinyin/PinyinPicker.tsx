/**
 * A select of the hand-built screens (系统管理's user and department forms, 调岗, the brand
 * tree's company) that also takes typing: departments, companies and people are found by the
 * shared pinyin rule (总部 by zb, 单雄信 by sxx) with the matched characters highlighted, as in
 * the generated forms' PinyinSelectInput. A tree's options keep their depth as an indent while
 * nothing is typed; at most MAX_SHOWN matches are listed. `emptyLabel` adds a first choice for the empty value (顶级部门, 集团通用).
 */
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { Highlight } from './Highlight.tsx';
import { usePinyinMatcher, type PinyinKind } from './usePinyin.ts';
import { pinyinOptions } from './pinyinOptions.ts';

export interface PickerOption<V extends string | number> {
  id: V;
  name: string;
  /** depth in a tree (indent) */
  depth?: number;
  disabled?: boolean;
}

export interface PinyinPickerProps<V extends string | number> {
  label: string;
  options: Array<PickerOption<V>>;
  /** the chosen id; `empty` (or a value not listed) when nothing is chosen */
  value: V | '' | null;
  onChange: (value: V | '') => void;
  /** `name` when the options are people (surname readings) */
  kind?: PinyinKind;
  /** a first choice standing for the empty value */
  emptyLabel?: string;
  /** the value `emptyLabel` stands for (default '') */
  emptyValue?: V | '';
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  size?: 'small' | 'medium';
}

const EMPTY = '\u0000empty';

export function PinyinPicker<V extends string | number>({
  label,
  options,
  value,
  onChange,
  kind = 'text',
  emptyLabel,
  emptyValue = '',
  required,
  disabled,
  error,
  helperText,
  size,
}: PinyinPickerProps<V>) {
  const match = usePinyinMatcher(kind);
  type Option = PickerOption<V | typeof EMPTY>;
  const all: Option[] = emptyLabel ? [{ id: EMPTY, name: emptyLabel }, ...options] : options;
  const isEmpty = value === null || value === '' || value === emptyValue;
  const selected = (isEmpty && emptyLabel ? all[0] : all.find((o) => o.id !== EMPTY && String(o.id) === String(value))) ?? null;
  const { queryOf, filterOptions } = pinyinOptions(match, (o: Option) => o.name, selected);
  return (
    <Autocomplete<Option>
      options={all}
      value={selected}
      disabled={disabled}
      autoHighlight
      noOptionsText="没有匹配的选项"
      getOptionLabel={(o) => o.name}
      getOptionDisabled={(o) => !!o.disabled}
      isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
      filterOptions={filterOptions}
      onChange={(_, o) => onChange(o && o.id !== EMPTY ? o.id : emptyValue)}
      renderOption={(props, o, { inputValue }) => {
        const q = queryOf(inputValue);
        return (
          <li {...props} key={String(o.id)}>
            <span style={{ paddingLeft: q ? 0 : `${(o.depth ?? 0) * 1}em` }}>
              <Highlight text={o.name} range={q ? match(o.name, q) : null} />
            </span>
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          error={error}
          helperText={helperText}
          placeholder="输入名称或拼音查找"
          size={size}
        />
      )}
      fullWidth
    />
  );
}
