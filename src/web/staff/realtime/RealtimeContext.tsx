/**
 * The console's live state, fed by two sockets while a staff member is signed in:
 * - /webSocket/{token}: INFO refreshes the unread count and the marquee; EXCEL feeds the
 *   import/export progress (last 5 messages), a 200 with a link downloads the file;
 * - /webSocket/{token}/{nickName}: CHAT appends to the open chat or raises its unread counter,
 *   CONNECT / CLOSE replace the online list.
 * A socket error shows the persistent notice WebSocket连接发生错误 (once until a socket opens again).
 * A socket that opens again after a drop (server restart, database outage, another instance)
 * re-syncs what it may have missed meanwhile: the console socket re-reads the unread count and
 * the marquee; the chat socket re-reads the latest history (merged into the open chat, or
 * counted into the chat's unread badge: messages newer than the newest one seen) and the
 * online list.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useGetIdentity, useNotify } from 'react-admin';
import { request } from '../../common/http.ts';
import { getToken, tokenEnded } from '../../common/token.ts';
import { ReconnectingSocket, socketUrl } from './socket.ts';
import { downloadLink } from './download.ts';
import { textOf } from '../../common/text.ts';

export const SOCKET_ERROR = 'WebSocket连接发生错误';
export const EXCEL_KEPT = 5;
export const CHAT_PAGE_SIZE = 20;

export interface ExcelMessage {
  key: number;
  code: number;
  msg: string;
  url?: string;
  fileName?: string;
  time: number;
}

export interface ChatMessage {
  id: number;
  formUser: string;
  formName: string;
  formImg?: string | null;
  msg: string;
  createTime: string;
}

export interface OnlineStaff {
  sid: string;
  name: string;
}

export interface LatestNotice {
  id: number;
  title: string;
  msg?: string | null;
  url?: string | null;
}

export interface RealtimeState {
  unread: number;
  refreshUnread: () => Promise<void>;
  /** bumps when INFO arrives: lists of notices reload */
  noticeVersion: number;
  latest: LatestNotice | null;
  excel: ExcelMessage[];
  excelOpen: boolean;
  setExcelOpen: (open: boolean) => void;
  chat: {
    open: boolean;
    setOpen: (open: boolean) => void;
    unread: number;
    messages: ChatMessage[];
    online: OnlineStaff[];
    loading: boolean;
    send: (text: string) => Promise<void>;
  };
}

const RealtimeContext = createContext<RealtimeState | null>(null);

export function useRealtime(): RealtimeState {
  const value = useContext(RealtimeContext);
  if (!value) throw new Error('useRealtime needs a RealtimeProvider');
  return value;
}

/** The newest enabled system message, as the marquee shows it. */
async function fetchLatest(): Promise<LatestNotice | null> {
  const res = await request<{ content: LatestNotice[] }>('/api/sysSocket', {
    query: { page: 0, size: 1, sort: ['createTime,desc', 'id,desc'], enabled: true },
    quiet: true,
  });
  return res.data.content[0] ?? null;
}

/** `live` false holds the sockets and the first counts back (the console sets it once its first screen is up). */
export function RealtimeProvider({ children, live = true }: { children: ReactNode; live?: boolean }) {
  const notify = useNotify();
  const { identity } = useGetIdentity();
  const nickName = identity ? String(identity.fullName || identity.username || 'staff') : null;
  const [unread, setUnread] = useState(0);
  const [noticeVersion, setNoticeVersion] = useState(0);
  const [latest, setLatest] = useState<LatestNotice | null>(null);
  const [excel, setExcel] = useState<ExcelMessage[]>([]);
  const [excelOpen, setExcelOpen] = useState(false);
  const [chatOpen, setChatOpenState] = useState(false);
  const [chatUnread, setChatUnread] = useState(0);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [everyoneOnline, setOnline] = useState<OnlineStaff[]>([]);
  // the list is the same for everyone: each user sees the others, not themselves
  const myName = identity ? String(identity.username ?? '') : '';
  const online = useMemo(() => everyoneOnline.filter((u) => u.sid !== myName), [everyoneOnline, myName]);
  const [chatLoading, setChatLoading] = useState(false);
  const chatOpenRef = useRef(false);
  /** newest chat message id this console has seen (0: not known yet) */
  const lastChatId = useRef(0);
  /** whether the chat's history has been read once (before that there is nothing to count against) */
  const chatSynced = useRef(false);
  const errorShown = useRef(false);
  const excelKey = useRef(0);

  const refreshUnread = useCallback(
    () =>
      request<{ totalElements: number }>('/api/sysSocket/getNotRead', { query: { page: 0, size: 1 }, quiet: true }).then(
        (res) => setUnread(Number(res.data.totalElements) || 0),
        () => undefined /* the next INFO or reload tries again */,
      ),
    [],
  );

  const refreshLatest = useCallback(
    () =>
      fetchLatest().then(
        (latest) => setLatest(latest),
        () => undefined /* keep the last one */,
      ),
    [],
  );

  const socketError = useCallback(() => {
    // a session that has just ended (password changed, idle lock) refuses its sockets: not a connection error
    if (errorShown.current || tokenEnded()) return;
    errorShown.current = true;
    notify(SOCKET_ERROR, { type: 'error', autoHideDuration: null as unknown as number });
  }, [notify]);
  const socketOpen = useCallback(() => {
    errorShown.current = false;
  }, []);

  const onLayoutMessage = useCallback(
    (data: Record<string, unknown>) => {
      if (data.msgType === 'INFO') {
        void refreshUnread();
        void refreshLatest();
        setNoticeVersion((v) => v + 1);
      } else if (data.msgType === 'EXCEL') {
        const message: ExcelMessage = {
          key: ++excelKey.current,
          code: Number(data.code),
          msg: textOf(data.msg),
          url: typeof data.url === 'string' ? data.url : undefined,
          fileName: typeof data.fileName === 'string' ? data.fileName : undefined,
          time: Date.now(),
        };
        setExcel((list) => [...list, message].slice(-EXCEL_KEPT));
        setExcelOpen(true);
        if (message.code === 200 && message.url) {
          downloadLink(message.url, message.fileName).catch(() => {
            /* the HTTP client shows why */
          });
        }
      }
    },
    [refreshUnread, refreshLatest],
  );

  /** The chat's latest page: the open chat merges it, a closed one counts what is newer than seen. */
  const resyncChat = useCallback(async (count: boolean) => {
    try {
      const [history, list] = await Promise.all([
        request<{ content: ChatMessage[] }>('/api/sysSocketChat', {
          query: { page: 0, size: CHAT_PAGE_SIZE, sort: 'id,desc' },
          quiet: true,
        }),
        request<OnlineStaff[]>('/api/sysSocketChat/wssList', { quiet: true }),
      ]);
      const latest = [...history.data.content].reverse();
      const seen = lastChatId.current;
      const synced = chatSynced.current;
      chatSynced.current = true;
      const newer = latest.filter((m) => m.id > seen);
      for (const m of latest) lastChatId.current = Math.max(lastChatId.current, m.id);
      if (Array.isArray(list.data)) setOnline(list.data);
      if (!count) return;
      if (chatOpenRef.current) {
        setMessages((current) => {
          const ids = new Set(current.map((m) => m.id));
          return [...current, ...latest.filter((m) => !ids.has(m.id))].sort((a, b) => a.id - b.id);
        });
      } else if (synced && newer.length) setChatUnread((n) => n + newer.length);
    } catch {
      /* the next message or reconnection tries again */
    }
  }, []);

  const onChatMessage = useCallback((data: Record<string, unknown>) => {
    if (data.msgType === 'CHAT') {
      const m = data as unknown as ChatMessage;
      lastChatId.current = Math.max(lastChatId.current, Number(m.id) || 0);
      if (chatOpenRef.current) setMessages((list) => (list.some((x) => x.id === m.id) ? list : [...list, m]));
      else setChatUnread((n) => n + 1);
    } else if ((data.msgType === 'CONNECT' || data.msgType === 'CLOSE') && Array.isArray(data.chats)) {
      setOnline(data.chats as OnlineStaff[]);
    }
  }, []);

  useEffect(() => {
    // the sockets open once the user is known (the chat socket carries the nick name)
    if (nickName === null || !live) return;
    void refreshUnread();
    void refreshLatest();
    const tokenPath = (suffix = '') => {
      const token = getToken();
      return token && !tokenEnded(token) ? socketUrl(`/webSocket/${encodeURIComponent(token)}${suffix}`) : null;
    };
    let layoutOpened = false;
    let chatOpened = false;
    const layout = new ReconnectingSocket(() => tokenPath(), {
      message: onLayoutMessage,
      error: socketError,
      open: () => {
        socketOpen();
        // opened again after a drop: what was pushed meanwhile is re-read
        if (layoutOpened) {
          void refreshUnread();
          void refreshLatest();
          setNoticeVersion((v) => v + 1);
        }
        layoutOpened = true;
      },
    });
    const chat = new ReconnectingSocket(() => tokenPath(`/${encodeURIComponent(nickName.slice(0, 64))}`), {
      message: onChatMessage,
      error: socketError,
      open: () => {
        socketOpen();
        void resyncChat(chatOpened);
        chatOpened = true;
      },
    });
    return () => {
      layout.close();
      chat.close();
    };
  }, [nickName, live, onLayoutMessage, onChatMessage, socketError, socketOpen, refreshUnread, refreshLatest, resyncChat]);

  const setChatOpen = useCallback((open: boolean) => {
    chatOpenRef.current = open;
    setChatOpenState(open);
    if (!open) return;
    setChatUnread(0);
    setChatLoading(true);
    Promise.all([
      request<{ content: ChatMessage[] }>('/api/sysSocketChat', { query: { page: 0, size: CHAT_PAGE_SIZE, sort: 'id,desc' } }),
      request<OnlineStaff[]>('/api/sysSocketChat/wssList'),
    ])
      .then(([history, list]) => {
        setMessages([...history.data.content].reverse());
        for (const m of history.data.content) lastChatId.current = Math.max(lastChatId.current, m.id);
        setOnline(list.data);
      })
      .catch(() => undefined)
      .finally(() => setChatLoading(false));
  }, []);

  const send = useCallback(async (text: string) => {
    const res = await request<ChatMessage>('/api/sysSocketChat', { method: 'POST', body: { msg: text } });
    const m = res.data;
    lastChatId.current = Math.max(lastChatId.current, m.id);
    setMessages((list) => (list.some((x) => x.id === m.id) ? list : [...list, m]));
  }, []);

  const value = useMemo<RealtimeState>(
    () => ({
      unread,
      refreshUnread,
      noticeVersion,
      latest,
      excel,
      excelOpen,
      setExcelOpen,
      chat: { open: chatOpen, setOpen: setChatOpen, unread: chatUnread, messages, online, loading: chatLoading, send },
    }),
    [
      unread,
      refreshUnread,
      noticeVersion,
      latest,
      excel,
      excelOpen,
      chatOpen,
      setChatOpen,
      chatUnread,
      messages,
      online,
      chatLoading,
      send,
    ],
  );
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}
