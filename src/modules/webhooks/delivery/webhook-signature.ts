import { createHmac, randomBytes } from 'node:crypto';
import { UNFORWARDABLE_HEADERS } from '../../../core/outbound/forwardable-headers.js';

/** The headers every delivery carries besides `content-type` and `user-agent` (docs/webhooks.md). */
export const WEBHOOK_HEADERS = {
  id: 'x-gateway-webhook-id',
  event: 'x-gateway-webhook-event',
  timestamp: 'x-gateway-webhook-timestamp',
  signature: 'x-gateway-webhook-signature',
} as const;

/** Headers a webhook's configured `headers` may not name: hop-by-hop ones and those the gateway sets itself. */
export const RESERVED_WEBHOOK_HEADERS: ReadonlySet<string> = new Set([
  ...UNFORWARDABLE_HEADERS,
  'content-type',
  'user-agent',
  ...Object.values(WEBHOOK_HEADERS),
]);

/** A new signing secret: 256 random bits, prefixed so it is recognisable in a receiver's configuration. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `v1=` + hex HMAC-SHA256 of `<timestamp>.<body>` keyed by the secret (the scheme receivers verify). */
export function signDelivery(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
