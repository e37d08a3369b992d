/**
 * 忘记密码 (/forgetpass): its own chunk, so the sign-in page does not load the reset form (its
 * select-capable text fields and the code button) before its first paint.
 */
import CssBaseline from '@mui/material/CssBaseline';
import { PlainThemeProvider as ThemeProvider } from '../common/PlainThemeProvider.tsx';
import { loginTheme } from '../common/loginTheme.ts';
import ForgetPassPage from './ForgetPassPage.tsx';

export default function ForgetPassApp() {
  return (
    <ThemeProvider theme={loginTheme}>
      <CssBaseline />
      <ForgetPassPage />
    </ThemeProvider>
  );
}
