import { WebSocket, type ClientOptions } from 'ws';
import type { TestApp } from '../helpers/test-app.js';

/** One message of the live channel, as the client parsed it. */
export interface LiveMessage {
  type: string;
  resource?: string;
  action?: string;
  id?: string;
  data: any;
  at: string;
}

/** A real WebSocket client on `/ws`, collecting what it receives. */
export class LiveClient {
  readonly messages: LiveMessage[] = [];
  readonly pings: number[] = [];
  closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw: Buffer) => {
      this.messages.push(JSON.parse(raw.toString('utf8')) as LiveMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('ping', () => this.pings.push(Date.now()));
    this.closed = new Promise((resolve) =>
      socket.once('close', (code: number, reason: Buffer) => {
        resolve({ code, reason: reason.toString('utf8') });
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  /** The first message (received already or later) that matches, or a rejection after `timeoutMs`. */
  async next(match: (m: LiveMessage) => boolean, timeoutMs = 5000): Promise<LiveMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no matching live message; got ${JSON.stringify(this.messages.map((m) => m.type))}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  of(type: string): LiveMessage[] {
    return this.messages.filter((m) => m.type === type);
  }

  close(): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.terminate();
    }
  }
}

export function wsUrl(gw: TestApp, query = '', path = '/ws'): string {
  return `${gw.baseUrl.replace(/^http/, 'ws')}${path}${query}`;
}

/** Opens `/ws` and waits for its `ready` message. */
export async function openLive(
  gw: TestApp,
  options: { headers?: Record<string, string>; ticket?: string; client?: ClientOptions } = {},
): Promise<LiveClient> {
  const query = options.ticket !== undefined ? `?ticket=${encodeURIComponent(options.ticket)}` : '';
  const socket = new WebSocket(wsUrl(gw, query), { headers: options.headers, ...options.client });
  const client = new LiveClient(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  await client.next((m) => m.type === 'ready');
  return client;
}

/** An upgrade the gateway refuses: the HTTP status, headers and GatewayError body it answered instead of 101. */
export function refusedUpgrade(
  gw: TestApp,
  options: { headers?: Record<string, string>; ticket?: string; path?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const query = options.ticket !== undefined ? `?ticket=${encodeURIComponent(options.ticket)}` : '';
  const socket = new WebSocket(wsUrl(gw, query, options.path), { headers: options.headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('error', () => undefined);
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null });
      });
    });
  });
}

/** Gives messages already sent time to arrive (used before asserting that one did not). */
export const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));
