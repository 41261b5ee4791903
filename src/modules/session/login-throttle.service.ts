import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { sha256Hex } from '../../core/auth/credentials.util.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { REDIS } from '../../core/redis/redis.module.js';

/** Failed logins allowed per window: per username (one account) and per client address (one attacker). */
export const LOGIN_MAX_FAILURES_PER_USERNAME = 5;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
const MEMORY_SWEEP_SIZE = 10_000;

interface Counter {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window counters of failed logins. In Redis when configured (shared by every replica), else in memory. Once a
 * counter reaches its limit every login for that username or address answers 429 until the window ends, correct
 * password or not.
 */
@Injectable()
export class LoginThrottleService {
  private readonly memory = new Map<string, Counter>();

  constructor(
    private readonly config: GatewayConfig,
    @Inject(REDIS) private readonly redis: Redis | null,
  ) {}

  private keys(username: string, address: string): Array<{ key: string; limit: number }> {
    const prefix = `${this.config.redis_prefix}:login-failures`;
    return [
      { key: `${prefix}:user:${sha256Hex(username.trim().toLowerCase())}`, limit: LOGIN_MAX_FAILURES_PER_USERNAME },
      { key: `${prefix}:addr:${address}`, limit: LOGIN_MAX_FAILURES_PER_ADDRESS },
    ];
  }

  /** Throws 429 `login_throttled` with Retry-After while either counter is at its limit. */
  async check(username: string, address: string): Promise<void> {
    let retryMs = 0;
    for (const { key, limit } of this.keys(username, address)) {
      const { count, ttlMs } = await this.read(key);
      if (count >= limit) retryMs = Math.max(retryMs, ttlMs);
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
    for (const { key } of this.keys(username, address)) await this.increment(key);
  }

  /** A successful login clears its username's counter (the address keeps its count). */
  async reset(username: string): Promise<void> {
    const [user] = this.keys(username, '');
    if (!user) return;
    if (this.redis) await this.redis.del(user.key);
    else this.memory.delete(user.key);
  }

  private async read(key: string): Promise<{ count: number; ttlMs: number }> {
    if (this.redis) {
      const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
      return { count: Number(count ?? 0), ttlMs: ttl > 0 ? ttl : LOGIN_FAILURE_WINDOW_MS };
    }
    const counter = this.memory.get(key);
    const now = Date.now();
    if (!counter || counter.resetAt <= now) return { count: 0, ttlMs: 0 };
    return { count: counter.count, ttlMs: counter.resetAt - now };
  }

  private async increment(key: string): Promise<void> {
    if (this.redis) {
      // The window starts with the first failure; a key left without expiry (a crash between the two commands)
      // gets one on the next failure.
      const result = await this.redis.multi().incr(key).pttl(key).exec();
      const ttl = Number(result?.[1]?.[1] ?? -1);
      if (ttl < 0) await this.redis.pexpire(key, LOGIN_FAILURE_WINDOW_MS);
      return;
    }
    const now = Date.now();
    if (this.memory.size >= MEMORY_SWEEP_SIZE) {
      for (const [k, c] of this.memory) if (c.resetAt <= now) this.memory.delete(k);
    }
    const counter = this.memory.get(key);
    if (!counter || counter.resetAt <= now) this.memory.set(key, { count: 1, resetAt: now + LOGIN_FAILURE_WINDOW_MS });
    else counter.count += 1;
  }
}
