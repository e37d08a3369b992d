/** A small notice bar for the applicant pages: success 2.5 s, server errors 30 s, form checks 4 s; closable. */
import { useCallback, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

export interface Notice {
  type: 'success' | 'error' | 'info';
  text: string;
  /** ms; default 2.5 s, server errors 30 s */
  duration?: number;
}

/** a form's own check: shown long enough to read, gone once the user is fixing it */
export const CHECK_NOTICE_MS = 4_000;

export function useNotice(): { show: (n: Notice) => void; element: ReactNode } {
  const [notice, setNotice] = useState<(Notice & { key: number }) | null>(null);
  const show = useCallback((n: Notice) => setNotice({ ...n, key: Date.now() }), []);
  const close = () => setNotice(null);
  const element = (
    <Snackbar
      key={notice?.key}
      open={!!notice}
      autoHideDuration={notice?.duration ?? (notice?.type === 'error' ? 30_000 : 2_500)}
      onClose={(_e, reason) => {
        if (reason !== 'clickaway') close();
      }}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      sx={{ top: { xs: 56, sm: 64 } }}
    >
      {notice ? (
        <Alert severity={notice.type} onClose={close} variant="filled" role="alert" sx={{ width: '100%' }}>
          {notice.text}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
  return { show, element };
}
