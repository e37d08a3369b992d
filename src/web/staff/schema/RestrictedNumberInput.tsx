/**
 * A numeric dialog input that applies the spec's input restrictions while typing (请输入正整数,
 * 请输入保留两位小数的数字 ...): dropped characters raise the restriction's notice; the form
 * value is the number (null when empty).
 */
import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { FieldTitle, InputHelperText, useInput, useNotify, type InputProps } from 'react-admin';
import { restrictInput, type RestrictionKind } from '../../../shared/input-filters.ts';

export function RestrictedNumberInput({
  kind,
  label,
  helperText,
  fullWidth,
  readOnly,
  ...props
}: InputProps & { kind: RestrictionKind; readOnly?: boolean; fullWidth?: boolean }) {
  const notify = useNotify();
  const { field, fieldState, isRequired } = useInput(props);
  const [text, setText] = useState(field.value === null || field.value === undefined ? '' : String(field.value));
  // follow outside changes (reset, record load) only
  const [valueSeen, setValueSeen] = useState<unknown>(field.value);
  if (!Object.is(valueSeen, field.value)) {
    setValueSeen(field.value);
    const shown = text === '' ? null : Number(text);
    if (field.value !== shown && !(Number.isNaN(shown) && field.value == null))
      setText(field.value === null || field.value === undefined ? '' : String(field.value));
  }
  return (
    <TextField
      name={field.name}
      inputRef={field.ref}
      value={text}
      onBlur={field.onBlur}
      onChange={(e) => {
        const { value, message } = restrictInput(kind, e.target.value);
        if (message) notify(message, { type: 'warning', autoHideDuration: message === '请输入保留两位小数的数字' ? 1500 : undefined });
        setText(value);
        const n = value === '' ? null : Number(value);
        field.onChange(n === null || Number.isNaN(n) ? null : n);
      }}
      label={
        typeof label === 'string' || label === undefined ? (
          <FieldTitle label={label} source={props.source} isRequired={isRequired} />
        ) : (
          label
        )
      }
      error={fieldState.invalid}
      helperText={<InputHelperText error={fieldState.error?.message} helperText={helperText} />}
      fullWidth={fullWidth}
      slotProps={{ htmlInput: { inputMode: 'decimal', readOnly } }}
    />
  );
}
