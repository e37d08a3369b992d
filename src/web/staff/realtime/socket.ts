/**
 * A websocket that reconnects: after a drop it waits 1 s, 2 s, 4 s ... up to 30 s (with a
 * little jitter so many consoles do not return at the same instant) and starts again at 1 s
 * once a connection has opened. It stops for good when closed by its owner.
 * Messages are JSON; each is handed to the listener as an object.
 */

export const FIRST_RETRY_MS = 1000;
/** Close code of a server instance that is stopping (1001 going away): reconnect quietly. */
export const SERVER_STOPPING_CODE = 1001;
export const MAX_RETRY_MS = 30_000;
const NO_SESSION_POLL_MS = 2000;
/** the server closes with this code when the socket's session ended (logout, lock, expiry) */
export const SESSION_ENDED_CODE = 4001;

/** ws:// or wss:// (behind TLS) on the page's own host. */
export function socketUrl(path: string, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${path}`;
}

/** The delay before retry number `attempt` (0-based), without jitter. */
export function retryDelay(attempt: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 15));
}

export interface SocketEvents {
  message(data: Record<string, unknown>): void;
  /** the connection failed or dropped (not called when the owner closed it, nor when the server
   * closed it because the session ended) */
  error?(): void;
  open?(): void;
}

type SocketFactory = (url: string) => WebSocket;

export class ReconnectingSocket {
  private socket?: WebSocket;
  private attempt = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private stopped = false;
  /** the address whose session the server ended: not tried again (the lock keeps the dead token) */
  private endedUrl?: string;

  constructor(
    private readonly url: () => string | null,
    private readonly events: SocketEvents,
    private readonly factory: SocketFactory = (u) => new WebSocket(u),
    private readonly random: () => number = Math.random,
  ) {
    this.connect();
  }

  private connect(): void {
    if (this.stopped) return;
    const url = this.url();
    if (!url || url === this.endedUrl) {
      // signed out or locked: look again for a new session later
      this.timer = setTimeout(() => this.connect(), NO_SESSION_POLL_MS);
      return;
    }
    let failed = false;
    const socket = this.factory(url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.events.open?.();
    };
    socket.onmessage = (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (data && typeof data === 'object') this.events.message(data as Record<string, unknown>);
    };
    const fail = (event?: Event) => {
      if (failed || this.stopped || this.socket !== socket) return;
      failed = true;
      const code = (event as CloseEvent | undefined)?.code;
      const sessionEnded = code === SESSION_ENDED_CODE;
      if (sessionEnded) {
        this.attempt = 0;
        this.endedUrl = url;
      } else if (code === SERVER_STOPPING_CODE) {
        // an instance going away (rolling restart): connect again, through the balancer, without a notice
        this.attempt = 0;
      } else this.events.error?.();
      this.schedule();
    };
    socket.onerror = fail;
    socket.onclose = fail;
  }

  private schedule(): void {
    const base = retryDelay(this.attempt++);
    const delay = base + Math.floor(this.random() * base * 0.2);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  get connected(): boolean {
    return this.socket?.readyState === 1;
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    const s = this.socket;
    this.socket = undefined;
    if (s && (s.readyState === 0 || s.readyState === 1)) s.close(1000);
  }
}
