/** Header button opening the help page of the current screen (/help?path=...). */
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { useLocation, useNavigate } from 'react-router-dom';

export function HelpButton() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (pathname === '/help') return null;
  return (
    <LazyTooltip title="页面帮助">
      <IconButton color="inherit" aria-label="页面帮助" onClick={() => void navigate(`/help?path=${encodeURIComponent(pathname)}`)}>
        <HelpOutlineIcon />
      </IconButton>
    </LazyTooltip>
  );
}
