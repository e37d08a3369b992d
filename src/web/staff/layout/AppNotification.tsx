/**
 * Notices: one at a time, duration from the notify options (2.5 s when not given), error
 * notices closable, server messages may carry HTML (sanitised).
 */
import { useEffect, useState } from 'react';
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
  const [current, setCurrent] = useState<NotificationPayload | undefined>();
  const [open, setOpen] = useState(false);
  const purify = useSanitizer(!!(current?.notificationOptions as { html?: boolean } | undefined)?.html);

  useEffect(() => {
    if (notifications.length && !current) {
      // Taking a notice changes react-admin's queue, state of another component, which no render may
      // do; so the next notice is taken here, after rendering, as react-admin's own Notification does.
      // Showing the queue's head instead (no local copy) lost notices in the applicant browser test.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setCurrent(takeNotification() ?? undefined);
      setOpen(true);
    } else if (notifications.length && current && open) {
      // a newer notice replaces the shown one
      setOpen(false);
    }
  }, [notifications, current, open, takeNotification]);

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
  const close = () => setOpen(false);

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
        slotProps={{ transition: { onExited: () => setCurrent(undefined) } }}
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
