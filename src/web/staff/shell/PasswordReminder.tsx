/**
 * Shows the signed-in user's password-age reminder (written by the 密码到期提醒 job for
 * passwords 80 to 89 days old) once: a warning with a link to the personal centre; closing or
 * following it marks it read (PUT api/jobs/passwordReminder/read).
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useNavigate } from 'react-router-dom';
import { request } from '../../common/http.ts';

export function PasswordReminder() {
  const navigate = useNavigate();
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    request<{ reminder: { message: string } | null }>('/api/jobs/passwordReminder', { quiet: true })
      .then(({ data }) => setMessage(data.reminder?.message ?? null))
      .catch(() => undefined);
  }, []);
  const done = (go: boolean) => {
    setMessage(null);
    void request('/api/jobs/passwordReminder/read', { method: 'PUT', quiet: true }).catch(() => undefined);
    if (go) void navigate('/user/center');
  };
  return (
    <Snackbar open={!!message} anchorOrigin={{ vertical: 'top', horizontal: 'center' }}>
      <Alert
        severity="warning"
        action={
          <>
            <Button color="inherit" size="small" onClick={() => done(true)}>
              去修改
            </Button>
            <Button color="inherit" size="small" onClick={() => done(false)}>
              知道了
            </Button>
          </>
        }
      >
        {message}
      </Alert>
    </Snackbar>
  );
}
