/**
 * A reference picker of the generated forms (departments, organisations, dealer companies,
 * people...): a select that also takes typing, found by the shared pinyin rule (部门 总部 by
 * zb or zongbu, 张伟 by zw) with the matched characters highlighted. Choices come from the
 * surrounding ReferenceInputBase; the value is the chosen record's id. With `choices` it serves
 * a dictionary select of many values the same way (the choices given, `format`/`parse` between
 * the stored value and the choice id); `emptyText` adds a choice that clears it (a filter's 全部).
 */
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { InputHelperText, useChoicesContext, useInput, useTranslate, type Validator } from 'react-admin';
import type { SxProps, Theme } from '@mui/material/styles';
import { Highlight } from '../../components/pinyin/Highlight.tsx';
import { usePinyinMatcher, type PinyinKind } from '../../components/pinyin/usePinyin.ts';

interface Choice {
  id: string | number;
  [key: string]: unknown;
}

export interface PinyinSelectInputProps {
  source: string;
  label: string;
  /** the choice property shown and searched */
  optionText: string;
  /** `name` when the choices are people (surname readings) */
  kind?: PinyinKind;
  validate?: Validator | Validator[];
  readOnly?: boolean;
  disabled?: boolean;
  helperText?: string | false;
  /** local choices (a dictionary's values) instead of the surrounding reference's */
  choices?: Array<{ id: string | number }>;
  /** read by a list's filter form (always shown) */
  alwaysOn?: boolean;
  format?: (value: unknown) => unknown;
  parse?: (value: unknown) => unknown;
  /** a first choice that clears the value (filters: 全部) */
  emptyText?: string;
  size?: 'small' | 'medium';
  sx?: SxProps<Theme>;
}

const EMPTY_ID = '\u0000empty';

const MAX_SHOWN = 200;

export function PinyinSelectInput({
  source,
  label,
  optionText,
  kind = 'text',
  validate,
  readOnly,
  disabled,
  helperText,
  choices: localChoices,
  format,
  parse,
  emptyText,
  size,
  sx,
}: PinyinSelectInputProps) {
  const translate = useTranslate();
  const { allChoices, isPending } = useChoicesContext<Choice>(localChoices ? { choices: localChoices } : {});
  const { field, fieldState, isRequired } = useInput({
    source,
    validate,
    readOnly,
    ...(format ? { format } : {}),
    ...(parse ? { parse } : {}),
  });
  const match = usePinyinMatcher(kind);
  const listed = allChoices ?? [];
  const choices = emptyText ? [{ id: EMPTY_ID, [optionText]: emptyText }, ...listed] : listed;
  const textOf = (c: Choice) => {
    const v = c[optionText];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
  };
  const empty = field.value === undefined || field.value === null || field.value === '';
  const selected = (empty && emptyText ? choices[0] : choices.find((c) => String(c.id) === String(field.value))) ?? null;
  const invalid = !!fieldState.error && (fieldState.isTouched || !!fieldState.error.message);
  const shownLabel = translate(label, { _: label });
  return (
    <Autocomplete<Choice>
      options={choices}
      value={selected}
      loading={isPending}
      loadingText="加载中…"
      noOptionsText="没有匹配的选项"
      autoHighlight
      disabled={disabled}
      readOnly={readOnly}
      getOptionLabel={textOf}
      isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
      filterOptions={(options, { inputValue }) => {
        // the chosen option's own text in the box lists everything, as a select does
        const q = selected && inputValue === textOf(selected) ? '' : inputValue;
        return options.filter((o) => match(textOf(o), q)).slice(0, MAX_SHOWN);
      }}
      onChange={(_, v) => field.onChange(v && v.id !== EMPTY_ID ? v.id : emptyText ? '' : null)}
      onBlur={field.onBlur}
      renderOption={(props, o, { inputValue }) => {
        const q = selected && inputValue === textOf(selected) ? '' : inputValue;
        return (
          <li {...props} key={String(o.id)}>
            <Highlight text={textOf(o)} range={match(textOf(o), q)} />
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          // the form focuses its first error through this ref
          inputRef={field.ref}
          label={shownLabel}
          required={isRequired}
          error={invalid}
          helperText={<InputHelperText error={invalid ? fieldState.error?.message : undefined} helperText={helperText} />}
          placeholder="输入名称或拼音查找"
          margin="dense"
          // as wide as the picker; in a list's filters (with 全部) it sits on the row's line as the text filters do
          fullWidth
          sx={emptyText ? { mb: 0 } : undefined}
          size={size}
          slotProps={{ htmlInput: { ...params.inputProps, 'data-field': source } }}
        />
      )}
      fullWidth={!sx}
      sx={sx}
    />
  );
}
