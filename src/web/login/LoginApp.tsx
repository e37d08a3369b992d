/** The public pages shown before sign-in: /login and /forgetpass. */
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { loginTheme } from '../common/loginTheme.ts';
import LoginPage from './LoginPage.tsx';
import ForgetPassPage from './ForgetPassPage.tsx';

export default function LoginApp({ path, query }: { path: string; query: URLSearchParams }) {
  return (
    <ThemeProvider theme={loginTheme}>
      <CssBaseline />
      {path === '/forgetpass' ? <ForgetPassPage /> : <LoginPage query={query} />}
    </ThemeProvider>
  );
}
