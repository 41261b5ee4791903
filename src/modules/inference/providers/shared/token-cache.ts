import { createHash } from 'node:crypto';
import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { isJsonObject, parseJson } from './wire-json.js';

/** A token is refreshed this long before it expires, or half its lifetime before when that is shorter. */
const REFRESH_MARGIN_MS = 60_000;
/** Distinct credentials kept; the oldest entry goes first beyond this. */
const MAX_ENTRIES = 1_000;

/** An exchanged token and when to stop using it (epoch ms of `AdapterIo.now()`). */
export interface ExchangedToken<T> {
  value: T;
  refreshAt: number;
}

/** When a token obtained at `obtainedAt` and valid until `expiresAt` is refreshed: shortly before it expires. */
export function refreshTime(obtainedAt: number, expiresAt: number): number {
  return expiresAt - Math.min(REFRESH_MARGIN_MS, Math.max(0, expiresAt - obtainedAt) / 2);
}

/**
 * Tokens obtained by an exchange (Databricks OAuth M2M, GitHub Copilot), reused across requests until their refresh
 * time. Entries are keyed by a hash of the credential and the exchange host, so the map never holds a secret as a
 * key; concurrent requests for one credential share one exchange.
 */
export class TokenCache<T> {
  private readonly entries = new Map<string, ExchangedToken<T>>();
  private readonly pending = new Map<string, Promise<T>>();

  async get(parts: string[], now: () => number, exchange: () => Promise<ExchangedToken<T>>): Promise<T> {
    const id = createHash('sha256').update(parts.join('\u0000')).digest('hex');
    const hit = this.entries.get(id);
    if (hit && now() < hit.refreshAt) return hit.value;
    let running = this.pending.get(id);
    if (!running) {
      running = exchange()
        .then((fresh) => {
          this.entries.delete(id);
          if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
          this.entries.set(id, fresh);
          return fresh.value;
        })
        .finally(() => this.pending.delete(id));
      this.pending.set(id, running);
    }
    return running;
  }
}

/**
 * The JSON object a token endpoint answered, or a 502 naming the provider and the status (the endpoint's body is not
 * quoted: it may echo the credential).
 */
export function tokenAnswer(provider: string, answer: { status: number; body: string }): Record<string, unknown> {
  const parsed = parseJson(answer.body);
  if (answer.status >= 200 && answer.status < 300 && isJsonObject(parsed)) return parsed;
  const refused = answer.status === 400 || answer.status === 401 || answer.status === 403;
  return tokenFailure(
    provider,
    `${provider} token exchange answered HTTP ${answer.status}${refused ? ': the credential was refused' : ''}`,
    refused,
  );
}

/** A token exchange that failed: the key's fault when the endpoint refused it, the provider's otherwise. */
export function tokenFailure(provider: string, message: string, refused = false): never {
  throw new GatewayException(502, 'provider_error', message, {
    reason: refused ? 'provider_auth_failed' : 'provider_server_error',
  });
}
