import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Role, type SendMessageRequest } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';
import { MGMT } from './agents-test-kit.js';

export { MGMT, SETUP_TOKEN } from './agents-test-kit.js';

export interface VirtualKey {
  id: string;
  value: string;
}

export async function createVirtualKey(gw: TestApp, name: string): Promise<VirtualKey> {
  const res = await gw.http.post('/api/governance/virtual-keys', { name }, MGMT);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.virtual_key.id as string, value: res.body.virtual_key.value as string };
}

export async function registerAgent(gw: TestApp, body: Record<string, unknown>): Promise<any> {
  const res = await gw.http.post('/api/agents', body, MGMT);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export function sql<T = any>(gw: TestApp, query: string, params: unknown[] = []): Promise<T[]> {
  return gw.app.get<DataSource>(getDataSourceToken()).query(query, params);
}

export function cardUrl(gw: TestApp, name: string): string {
  return `${gw.baseUrl}/agents/a2a/${name}/.well-known/agent-card.json`;
}

/** fetch that adds `Authorization: Bearer <vk>` (what an A2A client configured with a gateway key does). */
export function vkFetch(vk: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${vk}`);
    return fetch(input, { ...init, headers });
  };
}

/** An @a2a-js/sdk client discovering the agent through the gateway's rewritten card. */
export function a2aClient(gw: TestApp, name: string, vk: string, transport: 'JSONRPC' | 'HTTP+JSON'): Promise<Client> {
  const fetchImpl = vkFetch(vk);
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    preferredTransports: [transport],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return factory.createFromUrl(cardUrl(gw, name), '');
}

export function userMessage(
  messageId: string,
  text = 'hello',
  extra: Partial<SendMessageRequest> & Record<string, unknown> = {},
): SendMessageRequest {
  return {
    tenant: '',
    configuration: undefined,
    metadata: undefined,
    message: {
      messageId,
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text' as const, value: text },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      contextId: '',
      taskId: '',
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    ...extra,
  };
}

/** Spec JSON of a user message (raw JSON-RPC / REST calls). */
export function wireMessage(messageId: string, text = 'hello') {
  return { messageId, role: 'ROLE_USER', parts: [{ text, mediaType: 'text/plain' }] };
}

export function rpc(method: string, params: unknown, id: string | number = 1) {
  return { jsonrpc: '2.0', id, method, params };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A raw node:http request (fetch refuses hop-by-hop headers such as Connection and Keep-Alive). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** The `event:` name (`message` when none) and parsed `data:` of every SSE block that has data. */
export function sseEvents(text: string): Array<{ event: string; data: any }> {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const event =
        lines
          .find((l) => l.startsWith('event:'))
          ?.slice(6)
          .trim() ?? 'message';
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      return { event, data };
    })
    .filter((e) => e.data.length > 0)
    .map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
}

/** Parses an SSE body into its `data:` payloads (JSON). */
export function sseData(text: string): any[] {
  return sseEvents(text).map((e) => e.data);
}

/** Which StreamResponse member an event (spec JSON) carries. */
export function kindOf(event: Record<string, unknown>): string {
  for (const k of ['task', 'message', 'statusUpdate', 'artifactUpdate']) if (k in event) return k;
  return 'unknown';
}

export interface ReceivedPush {
  headers: IncomingHttpHeaders;
  body: any;
  status: number;
}

export interface PushReceiver {
  url: string;
  received: ReceivedPush[];
  /** Answer the next `n` requests with 503. */
  failNext(n: number): void;
  waitFor(predicate: (all: ReceivedPush[]) => boolean, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

/** The client's webhook: a local server on 127.0.0.1:0 recording every push it gets. */
export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  let failures = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = failures > 0 ? 503 : 200;
      if (failures > 0) failures--;
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* keep text */
      }
      received.push({ headers: req.headers, body, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  return {
    url,
    received,
    failNext: (n) => {
      failures = n;
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`push receiver: condition not met; got ${JSON.stringify(received)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function eventually<T>(fn: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (check(value)) return value;
    if (Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
