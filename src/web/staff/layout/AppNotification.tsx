/**
 * Notices: one at a time, duration from the notify options (2.5 s when not given), error
 * notices closable, server messages may carry HTML (sanitised).
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Portal from '@mui/material/Portal';
import Snackbar from '@mui/material/Snackbar';
import { useNotificationContext, useTranslate, type NotificationPayload } from 'react-admin';
import { htmlText, useSanitizer } from './sanitizer.ts';

export const DEFAULT_NOTICE_MS = 2500;

const severity = { success: 'success', info: 'info', warning: 'warning', error: 'error' } as const;

export function AppNotification() {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  // the shown notice is the queue's first; it leaves the queue once it has closed (transition exited)
  const current: NotificationPayload | undefined = notifications[0];
  const [entered, setEntered] = useState<NotificationPayload | null>(null);
  const [closed, setClosed] = useState<NotificationPayload | null>(null);
  // open until closed; a newer notice in the queue closes it as soon as it has appeared
  const open = !!current && closed !== current && (notifications.length === 1 || entered !== current);
  const purify = useSanitizer(!!(current?.notificationOptions as { html?: boolean } | undefined)?.html);

  if (!current) return null;
  const options = current.notificationOptions ?? {};
  const { autoHideDuration, messageArgs, html, closable } = options as {
    autoHideDuration?: number | null;
    messageArgs?: Record<string, unknown>;
    html?: boolean;
    closable?: boolean;
  };
  const text = typeof current.message === 'string' ? translate(current.message, { _: current.message, ...messageArgs }) : current.message;
  const canClose = closable ?? current.type === 'error';
  const close = () => setClosed(current);

  // in a portal of its own: an open dialog marks the app root aria-hidden, which would hide the notice from assistive technology
  return (
    <Portal>
      <Snackbar
        open={open}
        autoHideDuration={autoHideDuration === undefined ? DEFAULT_NOTICE_MS : autoHideDuration}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') close();
        }}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        slotProps={{ transition: { onEnter: () => setEntered(current), onExited: () => takeNotification() } }}
      >
        <Alert
          severity={severity[current.type] ?? 'info'}
          variant="filled"
          onClose={canClose ? close : undefined}
          sx={{ maxWidth: 600, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
        >
          {html && typeof text === 'string' ? (
            purify ? (
              <span dangerouslySetInnerHTML={{ __html: purify.sanitize(text) }} />
            ) : (
              htmlText(text)
            )
          ) : (
            text
          )}
        </Alert>
      </Snackbar>
    </Portal>
  );
}
