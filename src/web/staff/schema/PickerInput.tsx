/**
 * The generated forms' date and date-time inputs: react-admin inputs around the shared lazily
 * loaded pickers, showing and taking 'yyyy-MM-dd' / 'yyyy-MM-dd HH:mm:ss' whatever the browser's
 * language. The form value is the API's string ('YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss'), null
 * when empty, exactly what the former native inputs sent.
 */
import { InputHelperText, useInput, useTranslate, type Validator } from 'react-admin';
import { DateField, DateTimeField } from '../../components/DateFields.tsx';

export interface PickerInputProps {
  source: string;
  label: string;
  kind: 'date' | 'datetime';
  validate?: Validator | Validator[];
  readOnly?: boolean;
  helperText?: string | false;
}

export function PickerInput({ source, label, kind, validate, readOnly, helperText }: PickerInputProps) {
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput({ source, validate, readOnly, parse: (v: string) => (v === '' ? null : v) });
  const Field = kind === 'date' ? DateField : DateTimeField;
  const invalid = !!fieldState.error && (fieldState.isTouched || !!fieldState.error.message);
  const value = typeof field.value === 'string' ? (kind === 'date' ? field.value.slice(0, 10) : field.value.slice(0, 19)) : '';
  return (
    <Field
      label={translate(label, { _: label })}
      name={field.name}
      value={value}
      onChange={(v) => field.onChange(v)}
      onBlur={field.onBlur}
      required={isRequired}
      readOnly={readOnly}
      error={invalid}
      helperText={<InputHelperText error={invalid ? fieldState.error?.message : undefined} helperText={helperText} />}
      fullWidth
      dataField={source}
    />
  );
}
