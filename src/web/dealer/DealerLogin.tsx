/**
 * /jxsLogin: the dealer sign-in. Heading with the site title, account and password (labelled
 * 密码: the specification's 确认密码 reads as "confirm password" on a page that asks for it once;
 * see docs/decisions.md), login button. The password travels RSA-OAEP encrypted in
 * a POST body; a 200 stores {token, user} in session storage under `authorization` and opens
 * /comp/jxs_comp.
 */
import { useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { encryptPassword } from '../common/rsa.ts';
import { replaceRoute } from '../route.ts';
import { usePublicSettings } from '../settings.ts';
import { RecordFooter } from '../components/RecordFooter.tsx';
import { suppressButtonKeys } from '../common/inputFilters.ts';
import { dealerFetch } from './http.ts';
import { setDealerSession, type DealerSession } from './session.ts';
import { productName } from '../../shared/product.ts';

export const DEALER_HOME = '/comp/jxs_comp';

/** Signs the dealer in (the password RSA-OAEP encrypted) and keeps the session; errors are thrown with the server's message. */
export async function dealerSignIn(username: string, password: string): Promise<DealerSession> {
  const { publicKey } = await dealerFetch<{ publicKey: string }>('api/publicKey', { quiet: true });
  const encrypted = await encryptPassword(password, publicKey);
  const answer = await dealerFetch<DealerSession>('comp/dbcCompany/auth/login', {
    method: 'POST',
    body: { username, password: encrypted },
    quiet: true,
  });
  setDealerSession(answer);
  return answer;
}

export default function DealerLogin() {
  const sys = usePublicSettings();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  /** set at once when a sign-in starts (the state above shows it only from the next render) */
  const inFlight = useRef(false);
  const title = productName(sys.title);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (inFlight.current) return;
    if (!username.trim()) return setError('请输入账号');
    if (!password) return setError('请输入密码');
    setError('');
    setLoading(true);
    inFlight.current = true;
    try {
      await dealerSignIn(username.trim(), password);
      replaceRoute(DEALER_HOME);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      inFlight.current = false;
      setLoading(false);
    }
  }

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg,#2d3a4b,#409EFF)',
      }}
    >
      <Paper
        component="form"
        onSubmit={(e) => void submit(e)}
        sx={{ width: 380, maxWidth: 'calc(100vw - 16px)', p: { xs: 3, sm: 4 } }}
        elevation={6}
        data-testid="dealer-login"
      >
        <Typography variant="h5" align="center" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <Typography variant="subtitle1" align="center" color="text.secondary" sx={{ mb: 3 }}>
          经销商登录
        </Typography>
        <TextField
          label="账号"
          name="username"
          fullWidth
          size="small"
          margin="dense"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value.slice(0, 32))}
        />
        <TextField
          label="密码"
          name="password"
          type="password"
          fullWidth
          size="small"
          margin="dense"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value.slice(0, 64))}
        />
        {error ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error}
          </Alert>
        ) : null}
        <Button
          type="submit"
          variant="contained"
          fullWidth
          sx={{ mt: 2 }}
          disabled={loading}
          onKeyDown={(e) => suppressButtonKeys(e, inFlight.current)}
        >
          {loading ? '登 录 中...' : '登 录'}
        </Button>
      </Paper>
      <RecordFooter compName={sys.compName} recordNumber={sys.recordNumber} sx={{ color: 'rgba(255,255,255,0.85)', mt: 3 }} />
    </Box>
  );
}
