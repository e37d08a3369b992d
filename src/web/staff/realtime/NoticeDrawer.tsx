/**
 * The header's system-messages entry: a bell with the unread count, opening a drawer with the
 * notice list (title bold while unread, publish time). Opening a notice shows its content or
 * link and marks it read (status 1): the badge drops by one.
 */
import { useCallback, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import DOMPurify from 'dompurify';
import { request } from '../../common/http.ts';
import { useRealtime } from './RealtimeContext.tsx';

export interface Notice {
  id: number;
  title: string;
  msg: string | null;
  url: string | null;
  status: 0 | 1;
  createTime: string;
}

export const NOTICE_LIST_SIZE = 9999;

/** A notice's link: same-site paths open in the console, others in a new tab. */
function NoticeLink({ url }: { url: string }) {
  const inside = url.startsWith('/') && !url.startsWith('//');
  return (
    <Link href={inside ? `#${url}` : url} target={inside ? undefined : '_blank'} rel="noopener noreferrer">
      {inside ? '查看详情' : url}
    </Link>
  );
}

export function NoticeDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { noticeVersion, refreshUnread } = useRealtime();
  const [notices, setNotices] = useState<Notice[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [expanded, setExpanded] = useState<number | null>(null);

  const fetchNotices = useCallback(
    () =>
      request<{ content: Notice[] }>('/api/sysSocket/getSocket', { query: { page: 0, size: NOTICE_LIST_SIZE }, quiet: true }).then(
        (res) => setNotices(res.data.content),
        () => setFailed(true),
      ),
    [],
  );
  const load = () => {
    setFailed(false);
    void fetchNotices();
  };

  // opened, or a new notice while open: the list loads again
  const [loadedFor, setLoadedFor] = useState({ open, noticeVersion });
  if (loadedFor.open !== open || loadedFor.noticeVersion !== noticeVersion) {
    setLoadedFor({ open, noticeVersion });
    if (open) setFailed(false);
  }
  useEffect(() => {
    if (open) void fetchNotices();
  }, [open, noticeVersion, fetchNotices]);

  const openNotice = async (notice: Notice) => {
    setExpanded((id) => (id === notice.id ? null : notice.id));
    if (notice.status === 1) return;
    setNotices((list) => list?.map((n) => (n.id === notice.id ? { ...n, status: 1 } : n)) ?? null);
    try {
      await request('/api/sysSocket/read', { method: 'PUT', body: { id: notice.id } });
    } finally {
      await refreshUnread();
    }
  };

  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 420 } } } }}>
      <Box role="region" aria-label="系统消息" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="h6" sx={{ flex: 1, fontSize: 16 }}>
            系统消息
          </Typography>
          <IconButton aria-label="关闭" onClick={onClose} size="small">
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
        <Box sx={{ flex: 1, overflow: 'auto' }}>
          {notices === null && !failed ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
              <CircularProgress size={28} aria-label="加载中" />
            </Box>
          ) : null}
          {failed ? (
            <Box sx={{ textAlign: 'center', py: 4, color: 'text.secondary' }}>
              消息加载失败，
              <Link component="button" onClick={load}>
                点击重试
              </Link>
            </Box>
          ) : null}
          {notices && notices.length === 0 ? (
            <Typography sx={{ textAlign: 'center', py: 4, color: 'text.secondary' }}>暂无消息</Typography>
          ) : null}
          {notices && notices.length ? (
            <List disablePadding>
              {notices.map((n) => (
                <Box key={n.id} component="li" sx={{ listStyle: 'none', borderBottom: 1, borderColor: 'divider' }}>
                  <ListItemButton onClick={() => void openNotice(n)} aria-expanded={expanded === n.id} data-status={n.status}>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography
                        sx={{ fontWeight: n.status === 1 ? 400 : 700, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                      >
                        {n.status === 1 ? null : (
                          <Box
                            component="span"
                            aria-label="未读"
                            sx={{ display: 'inline-block', width: 8, height: 8, borderRadius: '50%', bgcolor: 'error.main', mr: 1 }}
                          />
                        )}
                        {n.title}
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        发布时间：{n.createTime}
                      </Typography>
                    </Box>
                  </ListItemButton>
                  {expanded === n.id ? (
                    <Box sx={{ px: 2, pb: 2, fontSize: 14, wordBreak: 'break-word', '& img': { maxWidth: '100%' } }}>
                      {n.msg ? <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(n.msg) }} /> : null}
                      {n.url ? <NoticeLink url={n.url} /> : null}
                      {!n.msg && !n.url ? <Typography color="text.secondary">（无内容）</Typography> : null}
                    </Box>
                  ) : null}
                </Box>
              ))}
            </List>
          ) : null}
        </Box>
      </Box>
    </Drawer>
  );
}
