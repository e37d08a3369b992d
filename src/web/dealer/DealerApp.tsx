/**
 * The dealer portal, its own small app (bundle) picked by route in Root:
 *   /jxsLogin                 sign-in
 *   /comp/jxs_comp            layout with 用车客户 (2) and 用车需求 (3)
 *   /comp/jxs_khdj_list       the layout opened on the customer list
 *   /comp/jxs_dbc             代步车用车信息 (audit and order status filters)
 * Without a dealer session every page but the sign-in goes to /jxsLogin. Failures of dealer
 * calls show the server's message; a 401 asks 登录状态已过期... and 重新登录 signs out to /jxsLogin.
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Snackbar from '@mui/material/Snackbar';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { phoneLayoutOptions } from '../phoneLayout.ts';
import { motionOptions, rippleOptions } from '../motion.ts';
import { ACCESSIBLE_COMPONENTS, BRAND_BLUE, STATUS_PALETTE } from '../common/palette.ts';
import { replaceRoute } from '../route.ts';
import { onDealerProblem } from './http.ts';
import { DEALER_LOGIN, getDealerSession, signOutToLogin } from './session.ts';
import DealerLogin from './DealerLogin.tsx';
import DealerLayout from './DealerLayout.tsx';
import { onNotice, type Notice } from './notices.ts';

export const SESSION_EXPIRED = '登录状态已过期，您可以继续留在该页面，或者重新登录';

const theme = createTheme({
  palette: { primary: { main: BRAND_BLUE }, ...STATUS_PALETTE },
  typography: { fontSize: 13 },
  ...motionOptions(),
  components: { ...rippleOptions(), ...phoneLayoutOptions(), ...ACCESSIBLE_COMPONENTS },
});

function Notices() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const offProblem = onDealerProblem((p) => {
      if (p.kind === 'expired') setExpired(true);
      else setNotice({ severity: 'error', message: p.message, ms: 30_000 });
    });
    const offNotice = onNotice(setNotice);
    return () => {
      offProblem();
      offNotice();
    };
  }, []);
  return (
    <>
      <Snackbar
        open={!!notice}
        autoHideDuration={notice?.ms ?? 2500}
        onClose={() => setNotice(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        {notice ? (
          <Alert severity={notice.severity} onClose={() => setNotice(null)} variant="filled" data-testid="dealer-notice">
            {notice.message}
          </Alert>
        ) : undefined}
      </Snackbar>
      <Dialog open={expired} onClose={() => setExpired(false)}>
        <DialogTitle>系统提示</DialogTitle>
        <DialogContent>{SESSION_EXPIRED}</DialogContent>
        <DialogActions>
          <Button onClick={() => setExpired(false)}>取消</Button>
          <Button
            variant="contained"
            onClick={() => {
              setExpired(false);
              signOutToLogin();
            }}
          >
            重新登录
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

export default function DealerApp({ path }: { path: string }) {
  const signedIn = !!getDealerSession();
  const needsLogin = path !== DEALER_LOGIN && !signedIn;
  useEffect(() => {
    if (needsLogin) replaceRoute(DEALER_LOGIN);
  }, [needsLogin]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {path === DEALER_LOGIN ? <DealerLogin /> : needsLogin ? null : <DealerLayout key={path} path={path} />}
      <Notices />
    </ThemeProvider>
  );
}
