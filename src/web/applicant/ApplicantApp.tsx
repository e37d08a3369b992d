/**
 * The public applicant pages (no sign-in), a bundle of their own picked by Root for the
 * /staffun paths: registration, the education step, 继续填写 (resume), success and the
 * recruitment information.
 * The region tables are part of this bundle only.
 */
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { loginTheme } from '../common/loginTheme.ts';
import RegisterPage from './RegisterPage.tsx';
import EducationPage from './EducationPage.tsx';
import SuccessPage from './SuccessPage.tsx';
import ResumePage from './ResumePage.tsx';
import { PostingListPage, PostingViewPage } from './PostingPages.tsx';

export default function ApplicantApp({ path, query }: { path: string; query: URLSearchParams }) {
  let page;
  switch (path) {
    case '/staffun/education':
      page = <EducationPage key={query.toString()} query={query} />;
      break;
    case '/staffun/resume':
      page = <ResumePage />;
      break;
    case '/staffun/success':
      page = <SuccessPage />;
      break;
    case '/staffun/list':
      page = <PostingListPage />;
      break;
    case '/staffun/view':
      page = <PostingViewPage query={query} />;
      break;
    default:
      page = <RegisterPage key={query.get('zpId') ?? ''} query={query} />;
  }
  return (
    <ThemeProvider theme={loginTheme}>
      <CssBaseline />
      {page}
    </ThemeProvider>
  );
}
