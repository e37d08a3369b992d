/**
 * The console's sockets: reconnect with back-off, no retry of a session the server ended, the
 * persistent error notice, INFO refreshing the unread badge, CHAT raising the counter, and the
 * progress dialog keeping the last 5 EXCEL messages.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { AppNotification } from '../../src/web/staff/layout/AppNotification.tsx';
import { ReconnectingSocket, retryDelay, socketUrl, SESSION_ENDED_CODE } from '../../src/web/staff/realtime/socket.ts';
import { RealtimeProvider } from '../../src/web/staff/realtime/RealtimeContext.tsx';
import { NoticeButton } from '../../src/web/staff/realtime/NoticeButton.tsx';
import { ChatButton } from '../../src/web/staff/realtime/ChatButton.tsx';
import { ExcelProgressDialog } from '../../src/web/staff/realtime/ExcelProgressDialog.tsx';
import { clearTokenEnded, markTokenEnded, setToken, removeToken, tokenEnded } from '../../src/web/common/token.ts';
import { mockFetch } from './fetchMock.ts';
import { testAuthProvider } from './renderScreen.tsx';
import { elapse } from '../support/wait.ts';

/** A stand-in for the browser's WebSocket, driven by the test. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  closedByClient = false;
  constructor(public url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) } as MessageEvent);
  }
  fail() {
    this.readyState = 3;
    this.onerror?.(new Event('error'));
    this.onclose?.({ code: 1006 } as CloseEvent);
  }
  end(code: number) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
  close() {
    this.closedByClient = true;
    this.readyState = 3;
  }
}

beforeEach(() => {
  FakeSocket.all = [];
});

describe('ReconnectingSocket', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('builds ws:// locally and wss:// behind TLS', () => {
    expect(socketUrl('/webSocket/t', { protocol: 'http:', host: 'a:8000' })).toBe('ws://a:8000/webSocket/t');
    expect(socketUrl('/webSocket/t', { protocol: 'https:', host: 'b.example' })).toBe('wss://b.example/webSocket/t');
  });

  it('retries after 1, 2, 4 ... 30 s, back to 1 s after a connection opened; reports each failure', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    const errors: number[] = [];
    const s = new ReconnectingSocket(
      () => 'ws://x/webSocket/t',
      { message: () => undefined, error: () => errors.push(Date.now()) },
      (u) => new FakeSocket(u) as unknown as WebSocket,
      () => 0,
    );
    expect(FakeSocket.all).toHaveLength(1);
    FakeSocket.all[0].fail();
    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1].fail();
    vi.advanceTimersByTime(1999);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2].open();
    FakeSocket.all[2].fail();
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(4);
    expect(errors).toHaveLength(3);
    s.close();
    expect(FakeSocket.all[3].closedByClient).toBe(true);
    FakeSocket.all[3].fail();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(4);
  });

  it('after the server ended the session it waits for a new token, silently', () => {
    let url = 'ws://x/webSocket/old';
    const errors: string[] = [];
    const s = new ReconnectingSocket(
      () => url,
      { message: () => undefined, error: () => errors.push('e') },
      (u) => new FakeSocket(u) as unknown as WebSocket,
      () => 0,
    );
    FakeSocket.all[0].open();
    FakeSocket.all[0].end(SESSION_ENDED_CODE);
    vi.advanceTimersByTime(30_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(errors).toEqual([]);
    url = 'ws://x/webSocket/new';
    vi.advanceTimersByTime(2000);
    expect(FakeSocket.all.map((f) => f.url)).toEqual(['ws://x/webSocket/old', 'ws://x/webSocket/new']);
    s.close();
  });

  it('hands JSON messages to the listener and ignores anything else', () => {
    const got: unknown[] = [];
    const s = new ReconnectingSocket(
      () => 'ws://x/y',
      { message: (m) => got.push(m) },
      (u) => new FakeSocket(u) as unknown as WebSocket,
    );
    FakeSocket.all[0].open();
    FakeSocket.all[0].receive({ msgType: 'INFO', msg: 'a' });
    FakeSocket.all[0].onmessage?.({ data: 'not json' } as MessageEvent);
    expect(got).toEqual([{ msgType: 'INFO', msg: 'a' }]);
    s.close();
  });
});

describe('RealtimeProvider in the console', () => {
  let unread = 2;
  let chatHistory: Array<{ id: number; msg: string }> = [];
  beforeEach(() => {
    unread = 2;
    chatHistory = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    setToken('T'.repeat(43), false);
    mockFetch({
      'GET /api/sysSocket/getNotRead': () => ({ body: { content: [], totalElements: unread } }),
      'GET /api/sysSocketChat': () => ({
        body: {
          content: [...chatHistory]
            .reverse()
            .map((m) => ({ ...m, formUser: 'lisi', formName: '李四', msgType: 'CHAT', createTime: '2026-01-01 00:00:00' })),
          totalElements: chatHistory.length,
        },
      }),
      'GET /api/sysSocketChat/wssList': { body: [] },
      'GET /api/sysSocket': { body: { content: [], totalElements: 0 } },
    });
  });
  afterEach(() => {
    removeToken();
    vi.unstubAllGlobals();
  });

  const renderConsole = () =>
    render(
      <AdminContext authProvider={testAuthProvider([], { username: 'zhangsan' })} i18nProvider={i18nProvider} store={memoryStore()}>
        <RealtimeProvider>
          <NoticeButton />
          <ChatButton />
          <ExcelProgressDialog />
        </RealtimeProvider>
        <AppNotification />
      </AdminContext>,
    );

  const sockets = async () => {
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThanOrEqual(2));
    const layout = FakeSocket.all.find((s) => /\/webSocket\/T+$/.test(s.url))!;
    const chat = FakeSocket.all.find((s) => /\/webSocket\/T+\/.+$/.test(s.url))!;
    act(() => {
      layout.open();
      chat.open();
    });
    return { layout, chat };
  };

  it('opens the console and chat sockets with the token; INFO refreshes the badge; CHAT raises the chat counter', async () => {
    renderConsole();
    const { layout, chat } = await sockets();
    expect(chat.url).toMatch(/\/webSocket\/T{43}\/%E5%BC%A0%E4%B8%89$/);
    await screen.findByLabelText('系统消息：未读消息2条');
    unread = 3;
    act(() => layout.receive({ msgType: 'INFO', msg: '您有新的系统消息：x' }));
    await screen.findByLabelText('系统消息：未读消息3条');
    act(() => chat.receive({ msgType: 'CHAT', id: 1, formUser: 'lisi', formName: '李四', msg: '你好', createTime: '2026-01-01 00:00:00' }));
    act(() => chat.receive({ msgType: 'CHAT', id: 2, formUser: 'lisi', formName: '李四', msg: '在吗', createTime: '2026-01-01 00:00:01' }));
    await screen.findByLabelText('在线用户：未读聊天2条');
  });

  it('keeps the last 5 EXCEL messages in the progress dialog', async () => {
    renderConsole();
    const { layout } = await sockets();
    act(() => {
      for (let i = 1; i <= 7; i++) layout.receive({ msgType: 'EXCEL', code: 100, msg: `进度${i}` });
    });
    const dialog = await screen.findByRole('dialog', { name: '导入导出进度' });
    const texts = within(dialog)
      .getAllByText(/^进度\d$/)
      .map((e) => e.textContent);
    expect(texts).toEqual(['进度3', '进度4', '进度5', '进度6', '进度7']);
    act(() => layout.receive({ msgType: 'EXCEL', code: 500, msg: '问题反馈数据导出失败：服务器处理出错，请稍后重试' }));
    await within(dialog).findByText('问题反馈数据导出失败：服务器处理出错，请稍后重试');
    expect(within(dialog).queryByText('进度3')).toBeNull();
  });

  it('a socket error shows WebSocket连接发生错误 once, without closing by itself', async () => {
    renderConsole();
    const { layout, chat } = await sockets();
    act(() => {
      layout.fail();
      chat.fail();
    });
    const alerts = await screen.findAllByText('WebSocket连接发生错误');
    expect(alerts).toHaveLength(1);
    await elapse(3000); // a spell in which the notice must not close by itself
    expect(screen.getByText('WebSocket连接发生错误')).toBeTruthy();
  });

  it('a session that has just ended (password changed, lock): its refused sockets are no connection error, and none opens with it', async () => {
    renderConsole();
    const { layout, chat } = await sockets();
    markTokenEnded();
    try {
      act(() => {
        layout.fail();
        chat.fail();
      });
      await elapse(1500); // a spell in which no error notice and no retry with the ended token may come
      expect(screen.queryByText('WebSocket连接发生错误')).toBeNull();
      // the retries do not use the ended token
      expect(FakeSocket.all).toHaveLength(2);
      // a new sign-in's token is live again
      setToken('N'.repeat(43), false);
      expect(tokenEnded()).toBe(false);
    } finally {
      clearTokenEnded();
    }
  });

  it('a socket that opens again after a drop re-reads the unread count and counts the chat messages it missed', async () => {
    chatHistory = [
      { id: 1, msg: '早' },
      { id: 2, msg: '在吗' },
    ];
    renderConsole();
    const { layout, chat } = await sockets();
    await screen.findByLabelText('系统消息：未读消息2条');
    // while both sockets are down: a notice and two chat messages are published
    act(() => {
      layout.fail();
      chat.fail();
    });
    unread = 5;
    chatHistory.push({ id: 3, msg: '开会' }, { id: 4, msg: '收到' });
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThanOrEqual(4), { timeout: 3000 });
    act(() => {
      for (const s of FakeSocket.all.slice(2)) s.open();
    });
    await screen.findByLabelText('系统消息：未读消息5条');
    await screen.findByLabelText('在线用户：未读聊天2条');
  });
});
