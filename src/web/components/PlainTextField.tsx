/**
 * An outlined text input with its label and helper line, the same markup, names and look as
 * MUI's `<TextField>` (FormControl > InputLabel + OutlinedInput + FormHelperText, the label and
 * helper tied to the input by id) for the pages that never need a select. TextField imports
 * Select, and with it Menu, Popover, Modal and the focus trap, whether a select is rendered or
 * not: about 10 KB gzipped the sign-in page would load before its first paint.
 */
import { useId, type ChangeEvent, type InputHTMLAttributes, type Ref } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';

export interface PlainTextFieldProps {
  label: string;
  name?: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  type?: string;
  placeholder?: string;
  autoComplete?: string;
  error?: boolean;
  helperText?: string;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
  margin?: 'dense' | 'normal' | 'none';
  required?: boolean;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  /** attributes of the `<input>` itself (inputMode, maxLength ...) */
  htmlInput?: InputHTMLAttributes<HTMLInputElement>;
  sx?: SxProps<Theme>;
}

export function PlainTextField({
  label,
  name,
  value,
  onChange,
  type,
  placeholder,
  autoComplete,
  error,
  helperText,
  fullWidth,
  size,
  margin,
  required,
  disabled,
  inputRef,
  htmlInput,
  sx,
}: PlainTextFieldProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl
      className="MuiTextField-root"
      variant="outlined"
      fullWidth={fullWidth}
      size={size}
      margin={margin}
      error={error}
      required={required}
      disabled={disabled}
      sx={sx}
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={onChange}
        placeholder={placeholder}
        autoComplete={autoComplete}
        label={label}
        inputRef={inputRef}
        inputProps={{ ...htmlInput, 'aria-describedby': helperId }}
      />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
