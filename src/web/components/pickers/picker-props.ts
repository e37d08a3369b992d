/** The props of DateField and DateTimeField, shared by the lazy loader and the pickers it loads. */
import type { ReactNode, Ref } from 'react';
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
