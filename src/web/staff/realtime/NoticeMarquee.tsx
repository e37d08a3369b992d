/**
 * A bar under the header scrolling the latest enabled system message (title and text), with a
 * close control. Closing hides that message for the rest of the browser session; a newer
 * message shows the bar again. With the tags bar on, it sits at the right end of that bar
 * (`inline`): a message arriving after the screen is drawn then moves nothing on it.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';
import CampaignIcon from '@mui/icons-material/Campaign';
import { useRealtime } from './RealtimeContext.tsx';
import { plainText } from '../../components/plainText.ts';
import { WARNING_TEXT } from '../../common/palette.ts';

const CLOSED_KEY = 'notice.marquee.closed';

export function NoticeMarquee({ inline = false }: { inline?: boolean }) {
  const { latest } = useRealtime();
  const [closedId, setClosedId] = useState<number | null>(() => {
    const saved = Number(sessionStorage.getItem(CLOSED_KEY));
    return Number.isFinite(saved) && saved > 0 ? saved : null;
  });
  if (!latest || latest.id === closedId) return null;
  const text = plainText(latest.msg);
  const close = () => {
    sessionStorage.setItem(CLOSED_KEY, String(latest.id));
    setClosedId(latest.id);
  };
  return (
    <Box
      role="status"
      aria-label="最新消息"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 1.5,
        py: inline ? 0 : 0.5,
        mb: inline ? 0 : 1,
        // inside the tags bar: no taller than its chips' row, so its arrival moves nothing
        ...(inline ? { flex: '0 1 50%', minWidth: 120, maxWidth: 640, height: 26, boxSizing: 'border-box', mr: 1 } : {}),
        bgcolor: '#fdf6ec',
        color: WARNING_TEXT,
        border: '1px solid #faecd8',
        borderRadius: 1,
        fontSize: 14,
        overflow: 'hidden',
      }}
    >
      <CampaignIcon fontSize="small" />
      <Box sx={{ flex: 1, overflow: 'hidden', whiteSpace: 'nowrap' }}>
        <Box
          component="span"
          data-testid="marquee-text"
          sx={{
            display: 'inline-block',
            // the text starts in view, stays a moment, then scrolls out to the left and starts again
            animation: 'notice-marquee 20s linear 2s infinite',
            '@keyframes notice-marquee': {
              '0%': { transform: 'translateX(0)' },
              '100%': { transform: 'translateX(-100%)' },
            },
            '&:hover': { animationPlayState: 'paused' },
            // who asks the system for less motion reads the notice standing still
            '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
          }}
        >
          <b>{latest.title}</b>
          {text ? `：${text}` : ''}
        </Box>
      </Box>
      <IconButton size="small" aria-label="关闭通知" onClick={close} sx={{ color: 'inherit', p: inline ? 0.25 : undefined }}>
        <CloseIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}
