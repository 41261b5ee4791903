import { Injectable } from '@nestjs/common';
import type { Dispatcher } from 'undici';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { OutboundHttpService } from '../../../core/outbound/outbound-http.service.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import { APP_VERSION } from '../../../core/version.js';
import type { DeliveryAttempt, WebhookDeliveryEntity } from '../entities/webhook-delivery.entity.js';
import type { WebhookEntity } from '../entities/webhook.entity.js';
import { signDelivery, WEBHOOK_HEADERS } from './webhook-signature.js';

/** Of the receiver's answer only this much is kept (in the attempt), the rest is not read. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const WEBHOOK_USER_AGENT = `ai-gateway-webhooks/${APP_VERSION}`;

/** The JSON body of a delivery: the same bytes on every attempt of one delivery. */
export function envelopeOf(delivery: WebhookDeliveryEntity): string {
  return JSON.stringify({
    id: delivery.id,
    event: delivery.event,
    created_at: delivery.created_at.toISOString(),
    data: delivery.payload,
  });
}

/**
 * Sends one attempt of a delivery: signs the envelope with the webhook's secret at send time, POSTs it through the
 * outbound client (address policy checked on every connect, redirects not followed) and describes the outcome. Never
 * throws: a failure of any kind is an attempt that failed.
 */
@Injectable()
export class WebhookSender {
  private readonly timeoutMs: number;

  constructor(
    private readonly outbound: OutboundHttpService,
    private readonly secrets: SecretsService,
    config: GatewayConfig,
  ) {
    this.timeoutMs = parseDuration(config.webhooks.delivery_timeout) ?? 10_000;
  }

  /** The longest one attempt takes. */
  get attemptTimeoutMs(): number {
    return this.timeoutMs;
  }

  async send(
    webhook: WebhookEntity,
    delivery: WebhookDeliveryEntity,
    attempt: number,
    signal?: AbortSignal,
  ): Promise<DeliveryAttempt & { ok: boolean }> {
    const at = new Date();
    const started = performance.now();
    const outcome = (fields: Omit<DeliveryAttempt, 'attempt' | 'at' | 'duration_ms'>, ok: boolean) => ({
      attempt,
      at: at.toISOString(),
      ...fields,
      duration_ms: Math.round(performance.now() - started),
      ok,
    });
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const abort = signal ? AbortSignal.any([deadline, signal]) : deadline;
    try {
      const headers = await this.headersFor(webhook, delivery);
      const body = envelopeOf(delivery);
      const timestamp = Math.floor(at.getTime() / 1000);
      headers[WEBHOOK_HEADERS.timestamp] = String(timestamp);
      headers[WEBHOOK_HEADERS.signature] = signDelivery(
        this.secrets.decrypt(webhook.secret_ciphertext),
        timestamp,
        body,
      );
      const response = await this.outbound.request(webhook.url, {
        method: 'POST',
        headers,
        body,
        timeoutMs: this.timeoutMs,
        bodyTimeoutMs: this.timeoutMs,
        signal: abort,
      });
      const excerpt = await readExcerpt(response.body, abort);
      const ok = response.status >= 200 && response.status < 300;
      return outcome(
        {
          status_code: response.status,
          ...(ok ? {} : { error: `receiver answered HTTP ${response.status}` }),
          ...(excerpt ? { response_excerpt: excerpt } : {}),
        },
        ok,
      );
    } catch (err) {
      const message = deadline.aborted
        ? `no answer within ${this.timeoutMs} ms (webhooks.delivery_timeout)`
        : err instanceof Error
          ? err.message
          : String(err);
      return outcome({ error: message }, false);
    }
  }

  private async headersFor(webhook: WebhookEntity, delivery: WebhookDeliveryEntity): Promise<Record<string, string>> {
    const headers: Record<string, string> = {};
    for (const [name, stored] of Object.entries(webhook.headers)) headers[name] = await this.secrets.resolve(stored);
    // The gateway's own headers last: configured ones cannot name them (refused on write), nor override them here.
    headers['content-type'] = 'application/json';
    headers['user-agent'] = WEBHOOK_USER_AGENT;
    headers[WEBHOOK_HEADERS.id] = delivery.id;
    headers[WEBHOOK_HEADERS.event] = delivery.event;
    return headers;
  }
}

/** Up to RESPONSE_EXCERPT_BYTES of the body as text; the connection is dropped rather than the rest read. */
function readExcerpt(body: Dispatcher.ResponseData['body'], signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = () => {
      body.off('data', onData);
      signal.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks, Math.min(total, RESPONSE_EXCERPT_BYTES)).toString('utf8'));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= RESPONSE_EXCERPT_BYTES) {
        body.destroy();
        finish();
      }
    };
    const onAbort = () => {
      body.destroy();
      finish();
    };
    body.on('data', onData);
    body.once('end', finish);
    body.once('error', finish);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
