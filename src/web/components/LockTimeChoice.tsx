/**
 * The choices of the 锁屏时间 dialogs (staff and dealers): 10/20/30/40/50/60/90 minutes, 永不 (0)
 * or 其他 (custom minutes, digits only, at most 3 characters; 时长不能为空). Each app frames them
 * in its own dialog and saves the minutes its own way.
 */
import { useState, type ReactNode } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { LOCK_CHOICES } from '../common/idle.ts';

const OTHER = 'other';
const choiceOf = (minutes: number) => (LOCK_CHOICES.includes(minutes) ? String(minutes) : OTHER);
const customOf = (minutes: number) => (LOCK_CHOICES.includes(minutes) ? '' : String(minutes));

export interface LockTimeChoiceState {
  /** the radio group and the custom field */
  fields: ReactNode;
  /** the chosen minutes (clearing both messages), or null with 时长不能为空 shown */
  minutes: () => number | null;
  /** the saving's failure message ('' for none); cleared when the dialog opens */
  failure: string;
  setFailure: (message: string) => void;
}

/** The choice's state, set back to `value` each time the dialog opens. */
export function useLockTimeChoice(open: boolean, value: number): LockTimeChoiceState {
  const [choice, setChoice] = useState<string>(choiceOf(value));
  const [custom, setCustom] = useState(customOf(value));
  const [error, setError] = useState('');
  const [failure, setFailure] = useState('');
  // set back each time the dialog opens (or the value changes while it is open)
  const [shownFor, setShownFor] = useState({ open, value });
  if (shownFor.open !== open || shownFor.value !== value) {
    setShownFor({ open, value });
    if (open) {
      setChoice(choiceOf(value));
      setCustom(customOf(value));
      setError('');
      setFailure('');
    }
  }

  const minutes = (): number | null => {
    if (choice === OTHER && !custom) {
      setError('时长不能为空');
      return null;
    }
    setError('');
    setFailure('');
    return choice === OTHER ? Number(custom) : Number(choice);
  };

  const fields = (
    <>
      <RadioGroup row name="lockTime" value={choice} onChange={(e) => setChoice(e.target.value)}>
        {LOCK_CHOICES.map((m) => (
          <FormControlLabel key={m} value={String(m)} control={<Radio size="small" />} label={m === 0 ? '永不' : `${m}分钟`} />
        ))}
        <FormControlLabel value={OTHER} control={<Radio size="small" />} label="其他" />
      </RadioGroup>
      {choice === OTHER ? (
        <TextField
          name="custom"
          label="时长（分钟）"
          size="small"
          margin="dense"
          value={custom}
          onChange={(e) => setCustom(e.target.value.replace(/\D/g, '').slice(0, 3))}
          error={!!error}
          helperText={error || '最多3位数字'}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }}
        />
      ) : null}
    </>
  );
  return { fields, minutes, failure, setFailure };
}
