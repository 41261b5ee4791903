import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { withTimeout } from '../clock/with-timeout.js';
import { parseDuration } from '../config/duration.js';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayException } from '../errors/gateway.exception.js';
import { CounterStore, type CounterWindow } from '../redis/counter.store.js';
import { sha256Hex } from './credentials.util.js';

/** Failed attempts allowed per window: per account (one username, or the setup token) and per client address. */
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const FAILURE_WINDOW_MS = 15 * 60_000;
const WINDOW: CounterWindow = { kind: 'fixed', ms: FAILURE_WINDOW_MS };
/** How long an attempt holds its place while the secret is checked (a crashed check stops counting after it). */
const ATTEMPT_HOLD_MS = 60_000;

/**
 * An attempt refused only because the places are held by checks still in flight (no failures yet) waits for one to
 * free, retrying with these pauses (about 2 s in all), before it answers 429: a burst of right secrets (a dashboard's
 * parallel calls) is no attack. Concurrent wrong secrets still get at most the limit compared: each waiting attempt
 * sees the failures the checks ahead of it committed.
 */
const PLACE_WAITS_MS = [5, 10, 20, 40, 80, 150, 250, 400, 500, 500];

/** The account key of the setup token: one secret shared by every caller, throttled like one username. */
export const SETUP_TOKEN_ACCOUNT = '\u0000setup-token';

/** One admitted attempt: say how it ended. */
export interface CredentialAttempt {
  /** The secret was right: the attempt does not count, and the account's failures are forgotten. */
  succeeded(): Promise<void>;
  /** The secret was wrong: the attempt counts as a failure of the account and of the address. */
  failed(): Promise<void>;
  /** The check itself broke (a database error): the attempt neither counts nor clears anything. */
  abandoned(): Promise<void>;
}

/**
 * The one throttle of every check of a password or the setup token (login, Basic, legacy Bearer `user:pass`, the
 * setup token header and its exchange), shared by every replica through the counter store under
 * `<redis_prefix>:login-failures:`. An attempt first reserves a place under both limits, atomically: a failure, or an
 * attempt still being checked, holds its place, so concurrent wrong secrets cannot all be checked against the same
 * count. Once the account or the address is at its limit, every attempt answers 429 until the window ends, right
 * secret or not.
 */
@Injectable()
export class CredentialThrottle {
  private readonly counters: CounterStore;
  /** `governance.counter_timeout`: a check never waits longer on counters that do not answer (Redis cut). */
  private readonly timeoutMs: number;

  constructor(counters: CounterStore, config: GatewayConfig) {
    this.counters = counters.scoped('login-failures');
    this.timeoutMs = parseDuration(config.governance.counter_timeout) ?? 500;
  }

  private static accountKey(account: string): string {
    return `user:${sha256Hex(account.trim().toLowerCase())}`;
  }

  /** Forgets the failures of an account and of an address (an operator unlocking them; tests between cases). */
  async forgive(target: { account?: string; address?: string }): Promise<void> {
    if (target.account !== undefined) await this.counters.reset(CredentialThrottle.accountKey(target.account));
    if (target.address !== undefined) await this.counters.reset(`addr:${target.address}`);
  }

  /** Admits one attempt, or throws 429 `login_throttled` with Retry-After. */
  async attempt(account: string, address: string): Promise<CredentialAttempt> {
    const accountKey = CredentialThrottle.accountKey(account);
    const reserve = () =>
      this.bounded(
        this.counters.reserve(
          [
            { key: accountKey, amount: 1, limit: MAX_FAILURES_PER_ACCOUNT, window: WINDOW },
            { key: `addr:${address}`, amount: 1, limit: MAX_FAILURES_PER_ADDRESS, window: WINDOW },
          ],
          ATTEMPT_HOLD_MS,
        ),
      );
    let result = await reserve();
    for (const pause of PLACE_WAITS_MS) {
      // Full of failures (`current` at the limit): throttled for the window. Full only of holds: wait for a place.
      if (result.ok || result.current + 1 > result.limit) break;
      await sleep(pause);
      result = await reserve();
    }
    if (!result.ok) {
      // Full only of attempts still being checked, the place frees in a moment: a second is the honest hint.
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      throw new GatewayException(429, 'login_throttled', `Too many failed attempts: try again in ${seconds} s`, {
        reason: 'policy_rate_limited',
        headers: { 'retry-after': String(seconds) },
      });
    }
    const { reservationId } = result;
    return {
      succeeded: async () => {
        // Independent keys: one round trip of the two, not two (every setup-token request passes here).
        await Promise.all([
          this.bounded(this.counters.release(reservationId)),
          this.bounded(this.counters.reset(accountKey)),
        ]);
      },
      failed: async () => {
        await this.bounded(this.counters.commit(reservationId));
      },
      abandoned: async () => {
        await this.bounded(this.counters.release(reservationId));
      },
    };
  }

  /** Runs `check` as one attempt: true settles it as a success, false as a failure; a throw abandons it. */
  async check(account: string, address: string, check: () => Promise<boolean> | boolean): Promise<boolean> {
    const attempt = await this.attempt(account, address);
    let ok: boolean;
    try {
      ok = await check();
    } catch (err) {
      await attempt.abandoned();
      throw err;
    }
    await (ok ? attempt.succeeded() : attempt.failed());
    return ok;
  }

  /**
   * A counter call that answers within the timeout or fails the check: 503, never a request left hanging on Redis
   * (an attempt reserved before the cut lapses on its own after its hold).
   */
  private async bounded<T>(call: Promise<T>): Promise<T> {
    if (this.counters.kind === 'memory') return call;
    try {
      return await withTimeout(call, this.timeoutMs, 'login counters');
    } catch (err) {
      throw new GatewayException(
        503,
        'service_unavailable',
        'Credentials cannot be checked now: the shared login counters do not answer',
        { reason: 'gateway_internal', cause: err },
      );
    }
  }
}
