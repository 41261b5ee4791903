import type { Schema } from '../../api/schemas';

export type LiveEvent = Schema<'LiveEvent'>;
export type LiveStatus = 'connecting' | 'connected' | 'disconnected';

/** Waits between reconnects: 1 s doubling to 15 s, reset by a connection that reached `ready`. */
export function reconnectDelay(attempt: number): number {
  return Math.min(15_000, 1000 * 2 ** Math.max(0, attempt));
}

export interface LiveChannelOptions {
  /** A one-use ticket (`POST /api/session/ws-ticket`): browsers cannot put credentials on a WebSocket. */
  ticket: () => Promise<string>;
  /** The socket URL for a ticket. */
  url: (ticket: string) => string;
}

/**
 * The dashboard's one connection to `GET /ws` (docs/live-channel.md), shared by every screen that listens: open while
 * at least one listener holds it, reconnecting on its own after any close (a restart, a slow-consumer drop, a network
 * break). `connected` is announced on the server's `ready` message, when the subscription is in place; screens that
 * show lists read them again then, since events sent while disconnected are gone.
 */
export class LiveChannel {
  private socket: WebSocket | undefined;
  private holders = 0;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private currentStatus: LiveStatus = 'disconnected';
  private readonly statusListeners = new Set<(status: LiveStatus) => void>();
  private readonly eventListeners = new Map<string, Set<(event: LiveEvent) => void>>();

  constructor(private readonly options: LiveChannelOptions) {}

  get status(): LiveStatus {
    return this.currentStatus;
  }

  /** Keeps the connection open until the returned function is called. */
  hold(): () => void {
    this.holders += 1;
    if (this.holders === 1) void this.open();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      if (this.holders === 0) this.close();
    };
  }

  /** Calls `listener` with every event of `type` (`log`, `mcp_log`, `change`, `circuit`). */
  on(type: LiveEvent['type'], listener: (event: LiveEvent) => void): () => void {
    let listeners = this.eventListeners.get(type);
    if (!listeners) this.eventListeners.set(type, (listeners = new Set()));
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    for (const listener of this.statusListeners) listener(status);
  }

  private async open(): Promise<void> {
    clearTimeout(this.timer);
    this.setStatus('connecting');
    let ticket: string;
    try {
      ticket = await this.options.ticket();
    } catch {
      this.retry();
      return;
    }
    if (this.holders === 0) return;
    const socket = new WebSocket(this.options.url(ticket));
    this.socket = socket;
    socket.onmessage = (message) => {
      let event: LiveEvent;
      try {
        event = JSON.parse(String(message.data)) as LiveEvent;
      } catch {
        return;
      }
      if (event.type === 'ready') {
        this.attempt = 0;
        this.setStatus('connected');
      }
      for (const listener of this.eventListeners.get(event.type) ?? []) listener(event);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.retry();
    };
  }

  private retry(): void {
    this.setStatus('disconnected');
    if (this.holders === 0) return;
    this.timer = setTimeout(() => void this.open(), reconnectDelay(this.attempt));
    this.attempt += 1;
  }

  private close(): void {
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(1000, 'no listener');
    this.attempt = 0;
    this.setStatus('disconnected');
  }
}
