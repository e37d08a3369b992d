/**
 * Turns HTTP client problems into the spec's reactions: 401 -> the session-expired dialog
 * (系统提示; 重新登录 signs out and goes to the sign-in page, 取消 stays), 403 -> /401,
 * other failures -> a notice with the server message.
 */
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useLogout, useNotify, useRedirect } from 'react-admin';

import { loginRoute, parseHash } from '../../route.ts';
import { onHttpProblem } from '../../common/httpEvents.ts';
import { messages } from '../../../shared/messages.ts';
import { useOpenedOnce } from '../../components/useOpenedOnce.ts';

export const SESSION_EXPIRED = messages.error.sessionExpired;

export function HttpProblemHandler() {
  const notify = useNotify();
  const redirect = useRedirect();
  const logout = useLogout();
  const [expired, setExpired] = useState(false);
  // the dialog renders from the first expiry on
  const dialogUsed = useOpenedOnce(expired);

  useEffect(
    () =>
      onHttpProblem((problem) => {
        if (problem.kind === 'unauthorized') setExpired(true);
        else if (problem.kind === 'forbidden') redirect('/401');
        else
          notify(problem.message, {
            type: 'error',
            autoHideDuration: problem.duration,
            closable: problem.closable,
            html: problem.html,
          });
      }),
    [notify, redirect],
  );

  if (!dialogUsed) return null;
  return (
    <Dialog open={expired} aria-labelledby="session-expired-title">
      <DialogTitle id="session-expired-title">{messages.error.sessionExpiredTitle}</DialogTitle>
      <DialogContent>{SESSION_EXPIRED}</DialogContent>
      <DialogActions>
        <Button onClick={() => setExpired(false)}>{messages.error.cancel}</Button>
        <Button
          variant="contained"
          onClick={() => {
            setExpired(false);
            void logout({}, loginRoute(parseHash()));
          }}
        >
          {messages.error.relogin}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
