import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../../core/auth/credentials.util.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { CounterStore, type CounterWindow } from '../../core/redis/counter.store.js';

/** Failed logins allowed per window: per username (one account) and per client address (one attacker). */
export const LOGIN_MAX_FAILURES_PER_USERNAME = 5;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
const WINDOW: CounterWindow = { kind: 'fixed', ms: LOGIN_FAILURE_WINDOW_MS };

/**
 * Fixed-window counters of failed logins (the window starts with the first failure), shared by every replica through
 * the counter store. They live under `<redis_prefix>:login-failures:`, documented for operators unlocking an account.
 * Once a counter reaches its limit every login for that username or address answers 429 until the window ends,
 * correct password or not.
 */
@Injectable()
export class LoginThrottleService {
  private readonly counters: CounterStore;

  constructor(counters: CounterStore) {
    this.counters = counters.scoped('login-failures');
  }

  private keys(username: string, address: string): Array<{ key: string; limit: number }> {
    return [
      { key: `user:${sha256Hex(username.trim().toLowerCase())}`, limit: LOGIN_MAX_FAILURES_PER_USERNAME },
      { key: `addr:${address}`, limit: LOGIN_MAX_FAILURES_PER_ADDRESS },
    ];
  }

  /** Throws 429 `login_throttled` with Retry-After while either counter is at its limit. */
  async check(username: string, address: string): Promise<void> {
    const now = Date.now();
    let retryMs = 0;
    for (const { key, limit } of this.keys(username, address)) {
      const { value, resetAt } = await this.counters.get(key, WINDOW);
      if (value >= limit) retryMs = Math.max(retryMs, resetAt - now);
    }
    if (retryMs > 0) {
      const seconds = Math.max(1, Math.ceil(retryMs / 1000));
      throw new GatewayException(429, 'login_throttled', `Too many failed logins: try again in ${seconds} s`, {
        reason: 'policy_rate_limited',
        headers: { 'retry-after': String(seconds) },
      });
    }
  }

  async recordFailure(username: string, address: string): Promise<void> {
    for (const { key } of this.keys(username, address)) await this.counters.increment(key, 1, WINDOW);
  }

  /** A successful login clears its username's counter (the address keeps its count). */
  async reset(username: string): Promise<void> {
    const [user] = this.keys(username, '');
    if (user) await this.counters.reset(user.key);
  }
}
