/**
 * A reference picker of the generated forms (departments, organisations, dealer companies,
 * people...): a select that also takes typing, found by the shared pinyin rule (部门 总部 by
 * zb or zongbu, 张伟 by zw) with the matched characters highlighted. Choices come from the
 * surrounding ReferenceInputBase; the value is the chosen record's id. With `choices` it serves
 * a dictionary select of many values the same way (the choices given, `format`/`parse` between
 * the stored value and the choice id); `emptyText` adds a choice that clears it (a filter's 全部).
 * With `deferred` (a list's filters) the picker itself mounts when first pointed at or focused:
 * until then a field of the same look shows the value. MUI's Autocomplete reads its field's width
 * on every render once mounted, which forced a layout of the whole page in the render before a
 * list's first paint, and its pinyin rule loads only with it.
 */
import { useRef, useState, type ReactNode } from 'react';
import Autocomplete, { type AutocompleteRenderInputParams } from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { InputHelperText, useChoicesContext, useInput, useTranslate, type Validator } from 'react-admin';
import type { SxProps, Theme } from '@mui/material/styles';
import { Highlight } from '../../components/pinyin/Highlight.tsx';
import { usePinyinMatcher, type PinyinKind } from '../../components/pinyin/usePinyin.ts';
import { pinyinOptions } from '../../components/pinyin/pinyinOptions.ts';

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
  /** the picker mounts on the first pointer or focus (a list's filters, before the first paint) */
  deferred?: boolean;
}

/** How the deferred picker was reached: focused (keyboard), pressed, or only pointed at. */
type Arming = 'focus' | 'press' | 'hover';

const EMPTY_ID = '\u0000empty';

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
  deferred,
}: PinyinSelectInputProps) {
  const translate = useTranslate();
  const [armed, setArmed] = useState<Arming | null>(null);
  /** the picker's field, reached through the stand-in, has had its text selected (as a click or tab selects it) */
  const selectedOnArm = useRef(false);
  const { allChoices, isPending } = useChoicesContext<Choice>(localChoices ? { choices: localChoices } : {});
  const { field, fieldState, isRequired } = useInput({
    source,
    validate,
    readOnly,
    ...(format ? { format } : {}),
    ...(parse ? { parse } : {}),
  });
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
  const helper = <InputHelperText error={invalid ? fieldState.error?.message : undefined} helperText={helperText} />;

  // what the stand-in and the picker's own field show alike
  const fieldLook = {
    label: shownLabel,
    required: isRequired,
    error: invalid,
    helperText: helper,
    placeholder: '输入名称或拼音查找',
    margin: 'dense' as const,
    size,
  };
  if (deferred && !armed) {
    const arm = (how: Arming) => () => {
      if (!disabled && !readOnly) setArmed(how);
    };
    return (
      <TextField
        value={selected ? textOf(selected) : ''}
        name={field.name}
        inputRef={field.ref}
        {...fieldLook}
        fullWidth={!sx}
        disabled={disabled}
        sx={sx}
        onPointerEnter={arm('hover')}
        onPointerDown={(e) => {
          // the press lands on a field about to leave: no focus for it (the picker's own field
          // takes the focus when it mounts, and opens)
          e.preventDefault();
          arm('press')();
        }}
        onFocus={arm('focus')}
        slotProps={{
          // the picker's own field in every way but the popup: a combobox, collapsed
          htmlInput: {
            role: 'combobox',
            'aria-expanded': false,
            'aria-autocomplete': 'list',
            readOnly: true,
            'data-field': source,
            // as the picker's field: no width of its own, the picker's (sx) decides
            style: { width: 0, minWidth: 30, flexGrow: 1 },
          },
          // where the picker keeps its popup button: the same room and the same arrow
          input: {
            sx: { pr: '39px' },
            endAdornment: (
              <ArrowDropDownIcon
                sx={{ position: 'absolute', right: 11, top: 'calc(50% - 12px)', color: 'action.active', pointerEvents: 'none' }}
              />
            ),
          },
        }}
      />
    );
  }
  return (
    <PinyinAutocomplete
      choices={choices}
      selected={selected}
      textOf={textOf}
      loading={isPending}
      kind={kind}
      disabled={disabled}
      readOnly={readOnly}
      onChange={(v) => field.onChange(v && v.id !== EMPTY_ID ? v.id : emptyText ? '' : null)}
      onBlur={field.onBlur}
      // a press opens it at once (its field takes the focus, see autoFocus below)
      openOnFocus={armed === 'press'}
      sx={sx}
      renderField={(params) => (
        <TextField
          {...params}
          name={field.name}
          // the form focuses its first error through this ref
          inputRef={(node: HTMLInputElement | null) => {
            field.ref(node);
            // reached through the stand-in: typing replaces the shown value, as after a click or tab
            if (node && (armed === 'focus' || armed === 'press') && !selectedOnArm.current) {
              selectedOnArm.current = true;
              node.select();
            }
          }}
          {...fieldLook}
          // as wide as the picker; in a list's filters (with 全部) it sits on the row's line as the text filters do
          fullWidth
          sx={emptyText ? { mb: 0 } : undefined}
          // reached by the keyboard or a press (deferred): the field takes the focus the stand-in had
          autoFocus={armed === 'focus' || armed === 'press'}
          slotProps={{ htmlInput: { ...params.inputProps, 'data-field': source } }}
        />
      )}
    />
  );
}

interface PinyinAutocompleteProps {
  choices: Choice[];
  selected: Choice | null;
  textOf: (c: Choice) => string;
  loading: boolean;
  kind: PinyinKind;
  disabled?: boolean;
  readOnly?: boolean;
  onChange: (value: Choice | null) => void;
  onBlur: () => void;
  openOnFocus: boolean;
  sx?: SxProps<Theme>;
  renderField: (params: AutocompleteRenderInputParams) => ReactNode;
}

/** The picker: MUI's Autocomplete with the pinyin rule (plain matching until the rule has loaded). */
function PinyinAutocomplete({
  choices,
  selected,
  textOf,
  loading,
  kind,
  disabled,
  readOnly,
  onChange,
  onBlur,
  openOnFocus,
  sx,
  renderField,
}: PinyinAutocompleteProps) {
  const match = usePinyinMatcher(kind);
  const { queryOf, filterOptions } = pinyinOptions(match, textOf, selected);
  return (
    <Autocomplete<Choice>
      options={choices}
      value={selected}
      loading={loading}
      loadingText="加载中…"
      noOptionsText="没有匹配的选项"
      autoHighlight
      openOnFocus={openOnFocus}
      disabled={disabled}
      readOnly={readOnly}
      getOptionLabel={textOf}
      isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
      filterOptions={filterOptions}
      onChange={(_, v) => onChange(v)}
      onBlur={onBlur}
      renderOption={(props, o, { inputValue }) => {
        const q = queryOf(inputValue);
        return (
          <li {...props} key={String(o.id)}>
            <Highlight text={textOf(o)} range={match(textOf(o), q)} />
          </li>
        );
      }}
      renderInput={renderField}
      fullWidth={!sx}
      sx={sx}
    />
  );
}
