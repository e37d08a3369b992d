/**
 * The online-users drawer with the chat room (46% wide): online staff on the left, the
 * messages on the right, a message box and 发送. Opening loads the last 20 messages and clears
 * the unread counter on the header button.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { useGetIdentity } from 'react-admin';
import { useRealtime } from './RealtimeContext.tsx';
import { Highlight } from '../../components/pinyin/Highlight.tsx';
import { usePinyinMatcher } from '../../components/pinyin/usePinyin.ts';

export const CHAT_MAX_LENGTH = 500;
export const CHAT_DRAWER_WIDTH = '46%';

export function ChatDrawer() {
  const { chat } = useRealtime();
  const { identity } = useGetIdentity();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);
  const me: unknown = identity?.username;

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [chat.messages.length, chat.open]);

  const send = async () => {
    const msg = text.trim();
    if (!msg || sending) return;
    setSending(true);
    try {
      await chat.send(msg);
      setText('');
    } catch {
      /* the HTTP client shows the server's message */
    } finally {
      setSending(false);
    }
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <Drawer
      anchor="right"
      open={chat.open}
      onClose={() => chat.setOpen(false)}
      slotProps={{ paper: { sx: { width: { xs: '100%', md: CHAT_DRAWER_WIDTH } } } }}
    >
      <Box role="region" aria-label="在线聊天" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="h6" sx={{ flex: 1, fontSize: 16 }}>
            在线用户（{chat.online.length}）
          </Typography>
          <IconButton aria-label="关闭" onClick={() => chat.setOpen(false)} size="small">
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
        <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
          <OnlineList online={chat.online} />
          <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
            <Box aria-label="聊天记录" role="log" sx={{ flex: 1, overflow: 'auto', p: 2, bgcolor: '#f5f7fa' }}>
              {chat.loading ? (
                <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
                  <CircularProgress size={24} aria-label="加载中" />
                </Box>
              ) : null}
              {!chat.loading && chat.messages.length === 0 ? (
                <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
                  暂无聊天记录，发一条消息打个招呼吧
                </Typography>
              ) : null}
              {chat.messages.map((m) => {
                const mine = m.formUser === me;
                return (
                  <Box
                    key={m.id}
                    data-testid="chat-message"
                    sx={{ display: 'flex', flexDirection: mine ? 'row-reverse' : 'row', gap: 1, mb: 1.5 }}
                  >
                    <Avatar src={m.formImg || undefined} sx={{ width: 32, height: 32, fontSize: 14 }}>
                      {(m.formName || m.formUser).slice(0, 1)}
                    </Avatar>
                    <Box sx={{ maxWidth: '75%', textAlign: mine ? 'right' : 'left' }}>
                      <Typography variant="caption" color="text.secondary">
                        {m.formName} {m.createTime}
                      </Typography>
                      <Box
                        sx={{
                          px: 1.5,
                          py: 1,
                          borderRadius: 1,
                          bgcolor: mine ? '#95ec69' : '#fff',
                          whiteSpace: 'pre-wrap',
                          wordBreak: 'break-word',
                          textAlign: 'left',
                          fontSize: 14,
                        }}
                      >
                        {m.msg}
                      </Box>
                    </Box>
                  </Box>
                );
              })}
              <div ref={bottom} />
            </Box>
            <Box sx={{ p: 1.5, borderTop: 1, borderColor: 'divider', display: 'flex', gap: 1, alignItems: 'flex-end' }}>
              <TextField
                value={text}
                onChange={(e) => setText(e.target.value.slice(0, CHAT_MAX_LENGTH))}
                onKeyDown={onKey}
                placeholder="输入消息，Enter发送，Shift+Enter换行"
                multiline
                maxRows={4}
                size="small"
                fullWidth
                slotProps={{ htmlInput: { maxLength: CHAT_MAX_LENGTH, 'aria-label': '消息内容' } }}
                helperText={`${text.length}/${CHAT_MAX_LENGTH}`}
              />
              <Button variant="contained" onClick={() => void send()} disabled={!text.trim() || sending} sx={{ mb: 2.8 }}>
                发送
              </Button>
            </Box>
          </Box>
        </Box>
      </Box>
    </Drawer>
  );
}

/**
 * The online staff, with a box that finds them by name or pinyin (张伟 by zw or zhangwei), the
 * matched characters marked. Rendered only while the drawer is open, so the pinyin rule loads
 * with the chat, not with the console.
 */
function OnlineList({ online }: { online: Array<{ sid: string; name: string }> }) {
  const [query, setQuery] = useState('');
  const match = usePinyinMatcher('name');
  const shown = online.map((u) => ({ u, range: match(u.name, query) })).filter((x) => x.range);
  return (
    <Box sx={{ width: 160, display: 'flex', flexDirection: 'column', borderRight: 1, borderColor: 'divider' }}>
      <TextField
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder="姓名或拼音"
        size="small"
        sx={{ m: 1, mb: 0 }}
        slotProps={{ htmlInput: { 'aria-label': '查找在线用户' } }}
      />
      <Box component="ul" aria-label="在线用户列表" sx={{ flex: 1, m: 0, p: 1, overflow: 'auto' }}>
        {online.length === 0 ? (
          <Typography component="li" variant="body2" color="text.secondary" sx={{ listStyle: 'none', p: 1 }}>
            暂无其他在线用户
          </Typography>
        ) : null}
        {online.length > 0 && shown.length === 0 ? (
          <Typography component="li" variant="body2" color="text.secondary" sx={{ listStyle: 'none', p: 1 }}>
            没有匹配的用户
          </Typography>
        ) : null}
        {shown.map(({ u, range }) => (
          <Box component="li" key={u.sid} sx={{ listStyle: 'none', display: 'flex', alignItems: 'center', gap: 1, p: 0.5 }}>
            <Box sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'success.main' }} />
            <Typography variant="body2" noWrap title={u.sid}>
              <Highlight text={u.name} range={range} />
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
