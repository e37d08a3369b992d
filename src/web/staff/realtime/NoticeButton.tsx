/** The header's system-messages bell with the unread count; its drawer (NoticeDrawer) is loaded when first opened. */
import { useEffect, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { lazyPart } from '../lazyPart.tsx';
import { useRealtime } from './RealtimeContext.tsx';
import { countedName } from './countedName.ts';
import { CountBadge } from './CountBadge.tsx';
import { OPEN_NOTICES_EVENT } from '../pages/home/summary.ts';

const NoticeDrawer = lazyPart(() => import('./NoticeDrawer.tsx'), 'NoticeDrawer');

export function NoticeButton() {
  const { unread } = useRealtime();
  const [open, setOpen] = useState(false);
  // mounted from the first opening on (it keeps its list between openings)
  const [used, setUsed] = useState(false);
  // 首页's 未读消息 opens the same drawer
  useEffect(() => {
    const onOpen = () => {
      setUsed(true);
      setOpen(true);
    };
    window.addEventListener(OPEN_NOTICES_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_NOTICES_EVENT, onOpen);
  }, []);
  return (
    <>
      <LazyTooltip title="系统消息">
        <IconButton
          color="inherit"
          aria-label={countedName('系统消息', '未读消息', unread)}
          onClick={() => {
            setUsed(true);
            setOpen(true);
          }}
        >
          <CountBadge count={unread}>
            <NotificationsIcon />
          </CountBadge>
        </IconButton>
      </LazyTooltip>
      {used ? <NoticeDrawer open={open} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
