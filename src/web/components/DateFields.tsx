/**
 * DateField / DateTimeField: the date pickers of every form and filter, loaded lazily so the
 * picker's code arrives with the first form that shows one, not with the shell or the sign-in
 * page. Until it has arrived a plain box shows the value in the same format and place.
 * See ./pickers/PickerFields.tsx for the behaviour.
 */
import { lazy, Suspense, type ReactNode, type Ref } from 'react';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';

export interface PickerFieldProps {
  label: string;
  /** 'YYYY-MM-DD' (DateField) or 'YYYY-MM-DD HH:mm:ss' (DateTimeField), '' when empty */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  /** data-field attribute of the input (forms that scroll to their first error find it by it) */
  dataField?: string;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
  disabled?: boolean;
  readOnly?: boolean;
  /** earliest and latest choosable value, in the same format as value */
  min?: string;
  max?: string;
  disableFuture?: boolean;
  clearable?: boolean;
  sx?: SxProps<Theme>;
  /** the input element (forms focus their first error) */
  inputRef?: Ref<HTMLInputElement>;
}

const load = () => import('./pickers/PickerFields.tsx');
const LazyDate = lazy(() => load().then((m) => ({ default: m.DatePickerField })));
const LazyDateTime = lazy(() => load().then((m) => ({ default: m.DateTimePickerField })));

/** Starts loading the picker early (e.g. when a form opens). */
export function preloadPickers(): void {
  void load();
}

function Placeholder(props: PickerFieldProps) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      required={props.required}
      error={props.error}
      helperText={props.helperText}
      fullWidth={props.fullWidth}
      size={props.size}
      disabled={props.disabled}
      sx={props.sx}
      inputRef={props.inputRef}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { readOnly: true, 'data-field': props.dataField } }}
    />
  );
}

export function DateField(props: PickerFieldProps) {
  return (
    <Suspense fallback={<Placeholder {...props} />}>
      <LazyDate {...props} />
    </Suspense>
  );
}

export function DateTimeField(props: PickerFieldProps) {
  return (
    <Suspense fallback={<Placeholder {...props} />}>
      <LazyDateTime {...props} />
    </Suspense>
  );
}
