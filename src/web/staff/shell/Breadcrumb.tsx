/** 首页 / <current screen>: the breadcrumb above each screen. */
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { HOME_PATH } from './tags.ts';
import { titleOf } from './titles.ts';

export function Breadcrumb() {
  const { pathname, search } = useLocation();
  const home = pathname === HOME_PATH || pathname === '/';
  return (
    <Breadcrumbs
      aria-label="面包屑"
      sx={{
        display: { xs: 'none', sm: 'flex' },
        fontSize: 14,
        ml: 2,
        color: 'inherit',
        '& .MuiBreadcrumbs-separator': { color: 'inherit', opacity: 0.7 },
      }}
    >
      {home ? (
        <Typography sx={{ fontSize: 14 }}>首页</Typography>
      ) : (
        <Link component={RouterLink} to={HOME_PATH} underline="hover" color="inherit" sx={{ opacity: 0.85 }}>
          首页
        </Link>
      )}
      {!home && (
        <Typography sx={{ fontSize: 14 }} aria-current="page">
          {titleOf(pathname, search)}
        </Typography>
      )}
    </Breadcrumbs>
  );
}
