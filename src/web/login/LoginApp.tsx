/** The staff sign-in page (/login). 忘记密码 (/forgetpass) is its own application: ForgetPassApp. */
import CssBaseline from '@mui/material/CssBaseline';
import { PlainThemeProvider as ThemeProvider } from '../common/PlainThemeProvider.tsx';
import { loginTheme } from '../common/loginTheme.ts';
import LoginPage from './LoginPage.tsx';

export default function LoginApp({ query }: { path: string; query: URLSearchParams }) {
  return (
    <ThemeProvider theme={loginTheme}>
      <CssBaseline />
      <LoginPage query={query} />
    </ThemeProvider>
  );
}
