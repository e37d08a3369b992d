/** Header fullscreen toggle; a browser without the Fullscreen API gets the spec's warning. */
import { useEffect, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import Fullscreen from '@mui/icons-material/Fullscreen';
import FullscreenExit from '@mui/icons-material/FullscreenExit';
import { useNotify } from 'react-admin';

export const FULLSCREEN_UNSUPPORTED = 'you browser can not work';

export function FullscreenButton() {
  const notify = useNotify();
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled || !document.documentElement.requestFullscreen) {
      notify(FULLSCREEN_UNSUPPORTED, { type: 'warning' });
      return;
    }
    const done = full ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    done.catch(() => notify(FULLSCREEN_UNSUPPORTED, { type: 'warning' }));
  };
  const label = full ? '退出全屏' : '全屏';
  return (
    <LazyTooltip title={label}>
      <IconButton color="inherit" aria-label={label} onClick={toggle}>
        {full ? <FullscreenExit /> : <Fullscreen />}
      </IconButton>
    </LazyTooltip>
  );
}
