/**
 * Staff sign-in: tab 账号登录 (account or phone, password, captcha, 记住我, 忘记密码, 登 录)
 * and a work-messaging QR tab. A failed sign-in blocks retry for 5 seconds with a visible
 * countdown and fetches a new captcha. The redirect query is honoured afterwards.
 */
import { RecordFooter } from '../components/RecordFooter.tsx';
import { lazy, Suspense, useCallback, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import { PlainTextField } from '../components/PlainTextField.tsx';
import { SignInTabs } from './SignInTabs.tsx';
import Typography from '@mui/material/Typography';
import { redirectTarget } from '../route.ts';
import { applyDocumentSettings, usePublicSettings } from '../settings.ts';
import {
  fetchCaptcha,
  passwordAgeDays,
  PASSWORD_WARN_DAYS,
  signIn,
  signInWithWecom,
  type Captcha,
  type SessionInfo,
} from '../common/session.ts';
import { getRemembered } from '../common/token.ts';
import { captchaChars, stripNonWord, suppressButtonKeys } from '../common/inputFilters.ts';
import { CaptchaButton } from '../components/CaptchaButton.tsx';
import { messages } from '../../shared/messages.ts';
import { productName } from '../../shared/product.ts';

// the QR tab and the old-password notice come when shown, not with the sign-in page
const QrPanel = lazy(() => import('./QrPanel.tsx'));
const PasswordAgeDialog = lazy(() => import('./PasswordAgeDialog.tsx').then((m) => ({ default: m.PasswordAgeDialog })));

const SIGN_IN_TABS = ['账号登录', '扫码登录'];

export const RETRY_BLOCK_SECONDS = 5;

export const LOGIN_MESSAGES = {
  username: messages.login.usernameRequired,
  password: messages.login.passwordRequired,
  code: messages.login.codeRequired,
} as const;

type FieldName = keyof typeof LOGIN_MESSAGES;

export interface LoginPageProps {
  query: URLSearchParams;
  /** moves to another route (defaults to changing the hash) */
  navigate?: (route: string) => void;
}

/** code and state of a WeCom QR sign-in, from the page address (WeCom appends them) or the hash query. */
export function wecomCallback(query: URLSearchParams, search: string = window.location.search): { code: string; state: string } | null {
  const outer = new URLSearchParams(search);
  const code = outer.get('code') ?? query.get('code');
  const state = outer.get('state') ?? query.get('state');
  return code && state ? { code, state } : null;
}

/** Removes code and state from the address, so a reload does not try them again. */
function dropWecomParams(): void {
  const outer = new URLSearchParams(window.location.search);
  outer.delete('code');
  outer.delete('state');
  outer.delete('appid');
  const rest = outer.toString();
  let hash = window.location.hash;
  const at = hash.indexOf('?');
  if (at >= 0) {
    const inner = new URLSearchParams(hash.slice(at + 1));
    inner.delete('code');
    inner.delete('state');
    hash = inner.toString() ? `${hash.slice(0, at)}?${inner}` : hash.slice(0, at);
  }
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest ? `?${rest}` : ''}${hash}`);
}

function goTo(route: string): void {
  window.location.hash = `#${route}`;
}

export default function LoginPage({ query, navigate = goTo }: LoginPageProps) {
  const [remembered] = useState(getRemembered);
  const sys = usePublicSettings();
  // back from a WeCom QR scan: code and state in the address sign the user in (read once, on arrival);
  // inside the embedded panel the whole page continues instead
  const [wecom] = useState(() => {
    const back = wecomCallback(query);
    return back ? { ...back, embedded: !!window.top && window.top !== window.self } : null;
  });
  const wecomSignIn = !!wecom && !wecom.embedded;
  const [tab, setTab] = useState(wecomSignIn ? 1 : 0);
  const [username, setUsername] = useState(remembered.username);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [rememberMe, setRememberMe] = useState(remembered.rememberMe);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [loading, setLoading] = useState(wecomSignIn);
  /** set at once when a sign-in starts (the state above shows it only from the next render) */
  const inFlight = useRef(false);
  const [countdown, setCountdown] = useState(0);
  const [failure, setFailure] = useState('');
  const [ageDialog, setAgeDialog] = useState<SessionInfo | null>(null);
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const inputs = { username: usernameInput, password: passwordInput, code: codeInput };

  useEffect(() => applyDocumentSettings('登录', sys), [sys]);

  const refreshCaptcha = useCallback(() => {
    fetchCaptcha()
      .then((value) => setCaptcha(value))
      .catch(() => setCaptcha({ img: '', uuid: '', enabled: true }));
  }, []);

  useEffect(refreshCaptcha, [refreshCaptcha]);

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = setTimeout(() => setCountdown((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown]);

  const captchaEnabled = captcha?.enabled !== false;

  const finish = (info: SessionInfo) => {
    navigate(info.user.defPassword ? '/user/center' : redirectTarget(query));
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (inFlight.current || loading || countdown > 0) return;
    const found: Partial<Record<FieldName, string>> = {};
    if (!username.trim()) found.username = LOGIN_MESSAGES.username;
    if (!password) found.password = LOGIN_MESSAGES.password;
    if (captchaEnabled && !code.trim()) found.code = LOGIN_MESSAGES.code;
    setErrors(found);
    const first = (Object.keys(LOGIN_MESSAGES) as FieldName[]).find((name) => found[name]);
    if (first) {
      inputs[first].current?.focus();
      return;
    }
    setLoading(true);
    inFlight.current = true;
    setFailure('');
    let info: SessionInfo;
    try {
      info = await signIn({
        username: username.trim(),
        password,
        code: captchaEnabled ? code.trim() : '',
        uuid: captcha?.uuid ?? '',
        rememberMe,
      });
    } catch (error) {
      inFlight.current = false;
      setLoading(false);
      setFailure(error instanceof Error && error.message ? error.message : '登录失败');
      setCountdown(RETRY_BLOCK_SECONDS);
      setCode('');
      refreshCaptcha();
      return;
    }
    afterSignIn(info);
  };

  /** The 90-day confirm, else on to the next page. */
  function afterSignIn(info: SessionInfo) {
    const age = passwordAgeDays(info.user.lastPasswordResetDate);
    if (age !== null && age >= PASSWORD_WARN_DAYS) {
      setAgeDialog(info);
      return;
    }
    finish(info);
  }

  const wecomSignedIn = useEffectEvent((info: SessionInfo) => afterSignIn(info));
  useEffect(() => {
    if (!wecom) return;
    if (wecom.embedded) {
      // the scan finished inside the embedded panel: let the whole page continue
      if (window.top) window.top.location.href = window.location.href;
      return;
    }
    dropWecomParams();
    signInWithWecom(wecom.code, wecom.state)
      .then((info) => wecomSignedIn(info))
      .catch((error: unknown) => {
        setLoading(false);
        setFailure(error instanceof Error && error.message ? error.message : '登录失败');
      });
  }, [wecom]);

  const buttonLabel = loading ? '登 录 中...' : countdown > 0 ? `${countdown} 秒后可重新登录` : '登 录';

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, #1f3b73 0%, #2d6cdf 100%)',
      }}
    >
      <Paper elevation={6} sx={{ width: 400, maxWidth: 'calc(100vw - 32px)', p: 3 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1, mb: 1 }}>
          {sys.logo ? <img src={sys.logo} alt="" style={{ height: 32 }} /> : null}
          <Typography variant="h6" component="h1">
            {productName(sys.title)}
          </Typography>
        </Box>
        <SignInTabs labels={SIGN_IN_TABS} value={tab} onChange={setTab} />
        {tab === 0 ? (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="账号登录">
            <PlainTextField
              inputRef={usernameInput}
              label="账号"
              placeholder="账号/手机号"
              name="username"
              autoComplete="username"
              fullWidth
              size="small"
              margin="dense"
              value={username}
              onChange={(e) => setUsername(stripNonWord(e.target.value))}
              error={!!errors.username}
              helperText={errors.username || ' '}
            />
            <PlainTextField
              inputRef={passwordInput}
              label="密码"
              type="password"
              name="password"
              autoComplete="current-password"
              fullWidth
              size="small"
              margin="dense"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={!!errors.password}
              helperText={errors.password || ' '}
            />
            {captchaEnabled ? (
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                <PlainTextField
                  inputRef={codeInput}
                  label="验证码"
                  name="code"
                  autoComplete="off"
                  size="small"
                  margin="dense"
                  sx={{ flex: 1 }}
                  value={code}
                  onChange={(e) => setCode(captchaChars(e.target.value))}
                  error={!!errors.code}
                  helperText={errors.code || ' '}
                  htmlInput={{ inputMode: 'numeric', maxLength: 6 }}
                />
                <CaptchaButton img={captcha?.img} onRefresh={refreshCaptcha} mt={1} />
              </Box>
            ) : null}
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
              <FormControlLabel
                control={<Checkbox size="small" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />}
                label="记住我"
              />
              <Link href="#/forgetpass" underline="hover">
                忘记密码
              </Link>
            </Box>
            {failure ? (
              <Alert severity="error" sx={{ mb: 1 }}>
                {failure}
              </Alert>
            ) : null}
            <Button
              type="submit"
              variant="contained"
              fullWidth
              disabled={loading || countdown > 0}
              onKeyDown={(e) => suppressButtonKeys(e, inFlight.current)}
            >
              {buttonLabel}
            </Button>
          </form>
        ) : (
          <>
            {failure ? (
              <Alert severity="error" sx={{ mb: 1 }}>
                {failure}
              </Alert>
            ) : null}
            {loading ? (
              <Typography align="center">正在登录...</Typography>
            ) : (
              <Suspense fallback={<Typography align="center">正在加载...</Typography>}>
                <QrPanel />
              </Suspense>
            )}
          </>
        )}
      </Paper>
      <RecordFooter compName={sys.compName} recordNumber={sys.recordNumber} sx={{ color: 'rgba(255,255,255,0.85)', mt: 3 }} />
      {ageDialog ? (
        <Suspense fallback={null}>
          <PasswordAgeDialog onLater={() => finish(ageDialog)} onChange={() => navigate('/user/center')} />
        </Suspense>
      ) : null}
    </Box>
  );
}
