/**
 * A date field that shows and takes 'yyyy-MM-dd' whatever the browser's language (a native date
 * input shows mm/dd/yyyy in an English browser): typed text keeps digits and dashes, dashes are
 * added after the year and the month, and the calendar button opens the browser's own picker
 * on a hidden native input. onChange gets a valid 'YYYY-MM-DD' or '' (cleared); a typed date
 * that does not exist stays in the box, marked as an error, and is not passed on.
 */
import { useEffect, useRef, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MuiTextField from '@mui/material/TextField';
import CalendarMonth from '@mui/icons-material/CalendarMonth';
import { isApiDate as isDateText } from '../../../shared/date-text.ts';

/** Keeps digits and dashes and shapes them as yyyy-MM-dd while typing. */
export function shapeDateText(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 4) return digits;
  if (digits.length <= 6) return `${digits.slice(0, 4)}-${digits.slice(4)}`;
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6)}`;
}

export interface DateTextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function DateTextField({ label, value, onChange }: DateTextFieldProps) {
  const [text, setText] = useState(value);
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => setText(value), [value]);
  const complete = text.length === 10;
  const invalid = complete && !isDateText(text);
  const type = (next: string) => {
    setText(next);
    if (next === '') onChange('');
    else if (next.length === 10 && isDateText(next)) onChange(next);
  };
  return (
    <>
      <MuiTextField
        size="small"
        label={label}
        value={text}
        placeholder="yyyy-MM-dd"
        error={invalid}
        onChange={(e) => type(shapeDateText(e.target.value))}
        sx={{ width: 170 }}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: { inputMode: 'numeric', 'aria-invalid': invalid },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton size="small" edge="end" aria-label={`选择${label}`} onClick={() => picker.current?.showPicker?.()}>
                  <CalendarMonth fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden
        value={isDateText(text) ? text : ''}
        onChange={(e) => type(e.target.value)}
        style={{ position: 'absolute', width: 1, height: 1, opacity: 0, pointerEvents: 'none' }}
      />
    </>
  );
}
