/**
 * 获取验证码 button: sends, then stays disabled for 60 seconds showing the seconds left.
 * A failed send (the message is shown by the caller) re-enables it at once.
 */
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button, { type ButtonProps } from '@mui/material/Button';
import TextField from '@mui/material/TextField';

export const RESEND_SECONDS = 60;

export interface CodeButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** sends the code; rejects when it was not sent */
  send: () => Promise<unknown>;
  /** checked first: when it answers false nothing is sent */
  ready?: () => boolean;
}

export function CodeButton({ send, ready, disabled, ...rest }: CodeButtonProps) {
  const [seconds, setSeconds] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);
  const click = async () => {
    if (ready && !ready()) return;
    setSending(true);
    try {
      await send();
      setSeconds(RESEND_SECONDS);
    } catch {
      /* the caller shows why */
    } finally {
      setSending(false);
    }
  };
  return (
    <Button
      variant="outlined"
      {...rest}
      disabled={disabled || sending || seconds > 0}
      onClick={() => void click()}
      sx={{ whiteSpace: 'nowrap', minWidth: 112, ...rest.sx }}
    >
      {seconds > 0 ? `${seconds}秒后重新获取` : sending ? '发送中...' : '获取验证码'}
    </Button>
  );
}

export interface CodeFieldProps {
  value: string;
  /** the digits typed (anything else is dropped) */
  onChange: (digits: string) => void;
  error?: string;
  send: () => Promise<unknown>;
  ready?: () => boolean;
}

/** 验证码 input (digits, at most 6) with its 获取验证码 button beside it. */
export function CodeField({ value, onChange, error, send, ready }: CodeFieldProps) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        name="code"
        label="验证码"
        size="small"
        margin="dense"
        sx={{ flex: 1 }}
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
        error={!!error}
        helperText={error || ' '}
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
      />
      <CodeButton send={send} ready={ready} sx={{ mt: 1 }} />
    </Box>
  );
}
