import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  /** The signature checked with the documented algorithm against the secret the receiver was given. */
  verified: boolean;
  /** What the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The secret signatures are checked with (from the create or rotate answer). */
  secret: string;
  /** Statuses to answer, in order, before going back to 200 (e.g. [500, 500]). */
  answerNext(statuses: number[]): void;
  /** Holds every answer this long (timeouts). */
  delayMs: number;
  /** Body of the 200 answers. */
  replyBody: string;
  waitFor(predicate: (all: ReceivedDelivery[]) => boolean, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

/**
 * docs/webhooks.md's verification, as a receiver writes it: HMAC-SHA256 of `<timestamp>.<raw body>` with the secret,
 * hex, compared in constant time with the `v1=` value; timestamps older than 5 minutes refused.
 */
export function verifySignature(secret: string, headers: IncomingHttpHeaders, rawBody: string): boolean {
  const timestamp = String(headers['x-gateway-webhook-timestamp'] ?? '');
  const signature = String(headers['x-gateway-webhook-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
  const given = signature.startsWith('v1=') ? signature.slice(3) : '';
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** A webhook receiver on loopback that records and verifies what it gets. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const queue: number[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    secret: '',
    delayMs: 0,
    replyBody: '{"ok":true}',
    answerNext: (statuses) => queue.push(...statuses),
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) {
          throw new Error(
            `webhook receiver: condition not met; got ${JSON.stringify(receiver.received.map((r) => r.body))}`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      return receiver.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = queue.shift() ?? 200;
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* keep the text */
      }
      receiver.received.push({
        headers: req.headers,
        raw,
        body,
        verified: verifySignature(receiver.secret, req.headers, raw),
        status,
      });
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status === 200 ? receiver.replyBody : `{"error":"status ${status}"}`);
      }, receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/gateway`;
  return receiver;
}
