/** The header's online-users button with the unread chat count; its drawer (ChatDrawer) is loaded when first opened. */
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import ForumIcon from '@mui/icons-material/Forum';
import { lazyPart } from '../lazyPart.tsx';
import { useRealtime } from './RealtimeContext.tsx';
import { countedName } from './countedName.ts';
import { CountBadge } from './CountBadge.tsx';

const ChatDrawer = lazyPart(() => import('./ChatDrawer.tsx'), 'ChatDrawer');

export function ChatButton() {
  const { chat } = useRealtime();
  // mounted from the first opening on
  const [used, setUsed] = useState(chat.open);
  if (chat.open && !used) setUsed(true);
  return (
    <>
      <LazyTooltip title="在线用户">
        <IconButton color="inherit" aria-label={countedName('在线用户', '未读聊天', chat.unread)} onClick={() => chat.setOpen(true)}>
          <CountBadge count={chat.unread}>
            <ForumIcon />
          </CountBadge>
        </IconButton>
      </LazyTooltip>
      {used || chat.open ? <ChatDrawer /> : null}
    </>
  );
}
