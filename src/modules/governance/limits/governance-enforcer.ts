import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Clock } from '../../../core/clock/clock.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { TimedOut, withTimeout } from '../../../core/clock/with-timeout.js';
import { parseDuration } from '../../../core/config/duration.js';
import type { ProviderId } from '../../inference/index.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import {
  CounterStore,
  type CounterState,
  type CounterWindow,
  type ReserveItem,
  type ReserveResult,
} from '../../../core/redis/counter.store.js';
import { MemoryCounterStore } from '../../../core/redis/memory-counter.store.js';
import {
  budgetCounterKey,
  GovernancePolicies,
  requestCounterKey,
  tokenCounterKey,
  type GovernanceSnapshot,
  type GovernedLevel,
  type ProviderConfigPolicy,
  type VirtualKeyPolicy,
} from './governed-levels.js';
import { limitRefusal, limitsUnavailable, resetText, type LimitCheck } from './limit-refusal.js';
import { allowedKeys, pickProviderByWeight, providerConfigFor } from './provider-access.js';
import { isPending } from '../../../core/async/maybe-promise.js';

/** How long a reservation holds before it stops counting (a stream may run this long and still be charged later). */
const HOLD_MS = 10 * 60_000;
/** A budget check reserves at least this much (USD), so a spent budget refuses even a request it cannot price. */
const MIN_BUDGET_RESERVATION = 1e-6;

/** What a request may use, estimated before the call (price table, `max_tokens`, input size). */
export interface UsageEstimate {
  /** USD; 0 when the model has no price. */
  costUsd: number;
  tokens: number;
}

/** What the answer really used, as far as it is known. */
export interface ActualUsage {
  costUsd?: number;
  tokens?: number;
}

class CountersDown extends Error {}

/**
 * One attempt's reservation at every level that covers it. Settled exactly once: `commit` with what the answer used
 * (the estimate stands in for what is unknown), or `release` when the attempt used nothing.
 */
export class Admission {
  private settled = false;

  constructor(
    /** `x-ratelimit-*` of the tightest request and token windows (empty without rate limits). */
    readonly headers: Record<string, string>,
    private readonly reservationId: string,
    private readonly store: CounterStore,
    private readonly items: ReadonlyArray<{ item: ReserveItem; check: LimitCheck }>,
    private readonly settle: (work: Promise<unknown>, what: string) => void,
  ) {}

  commit(actual: ActualUsage = {}): void {
    if (this.settled) return;
    this.settled = true;
    const amounts: Record<string, number> = {};
    for (const { item, check } of this.items) {
      if (check.kind === 'budget' && actual.costUsd !== undefined) amounts[item.key] = actual.costUsd;
      if (check.kind === 'tokens' && actual.tokens !== undefined) amounts[item.key] = actual.tokens;
    }
    this.settle(this.store.commit(this.reservationId, amounts), 'commit');
  }

  release(): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(this.store.release(this.reservationId), 'release');
  }
}

/** The levels of each (provider config, provider, model) a policy was asked for, at most `MAX_KNOWN_LEVELS`. */
const knownLevels = new WeakMap<VirtualKeyPolicy, Map<string, readonly GovernedLevel[]>>();
const MAX_KNOWN_LEVELS = 256;

/**
 * A request of one virtual key, as governance sees it: the snapshot it was admitted under and the key's policy. The
 * router asks it, for each model of the fallback chain, which provider a bare model goes to, whether the provider
 * and model are allowed, which keys may serve, and for an admission at every level covering the attempt.
 */
export class GovernedCall {
  constructor(
    private readonly enforcer: GovernanceEnforcer,
    private readonly snapshot: GovernanceSnapshot,
    readonly policy: VirtualKeyPolicy,
  ) {}

  /** Whether a model without a provider prefix is placed by the key's provider configs. */
  get placesBareModels(): boolean {
    return this.policy.providerConfigs.length > 0;
  }

  /** The provider for a bare model, by weight among the key's configs that allow it (403 when none does). */
  pickProvider(model: string, usable: (provider: ProviderId) => boolean): ProviderId {
    return pickProviderByWeight(this.policy, model, usable);
  }

  /** The provider config the attempt runs under (undefined: the key lists none), or 403 `model_blocked`. */
  access(provider: ProviderId, model: string): ProviderConfigPolicy | undefined {
    return providerConfigFor(this.policy, provider, model);
  }

  /** The keys the config lets the router pick. */
  keys<K extends { id: string }>(config: ProviderConfigPolicy | undefined, keys: K[]): K[] {
    return allowedKeys(config, keys);
  }

  /**
   * Every level covering an attempt that carries a budget or a rate limit: provider config → virtual key → team →
   * customers → provider governance → model configs.
   */
  levels(config: ProviderConfigPolicy | undefined, provider: ProviderId, model: string): readonly GovernedLevel[] {
    // The same every time for one snapshot's policy (a rebuilt snapshot has new policy objects): kept per policy.
    let known = knownLevels.get(this.policy);
    if (!known) knownLevels.set(this.policy, (known = new Map<string, readonly GovernedLevel[]>()));
    const key = `${config ? this.policy.providerConfigs.indexOf(config) : -1}\u0000${provider}\u0000${model}`;
    let levels = known.get(key);
    if (!levels) {
      levels = this.levelsOf(config, provider, model);
      // Models are the callers' strings: a policy keeps a bounded number.
      if (known.size >= MAX_KNOWN_LEVELS) known.clear();
      known.set(key, levels);
    }
    return levels;
  }

  private levelsOf(config: ProviderConfigPolicy | undefined, provider: ProviderId, model: string): GovernedLevel[] {
    const out: GovernedLevel[] = [];
    const add = (level: GovernedLevel | undefined) => {
      if (level && (level.budgets.length > 0 || level.rateLimit)) out.push(level);
    };
    add(config?.level);
    add(this.policy.level);
    add(this.policy.team);
    for (const customer of this.policy.customers) add(customer);
    add(this.snapshot.provider(provider));
    for (const level of this.snapshot.modelConfigs(model, provider, this.policy.id)) add(level);
    return out;
  }

  /** Reserves `estimate` at every level (402, 429 or 503 when refused); undefined when no level has limits. */
  admit(levels: readonly GovernedLevel[], estimate: () => UsageEstimate): Promise<Admission | undefined> {
    return levels.length === 0 ? Promise.resolve(undefined) : this.enforcer.admit(levels, estimate());
  }
}

/**
 * Budgets and rate limits on the request path. Reads only the GovernancePolicies snapshot (never the database) and
 * checks every level in one atomic CounterStore.reserve: a Lua script on Redis, shared by every replica, or the
 * in-process store on the embedded default. Redis failures and slow answers follow `governance.redis_failure_mode`.
 */
@Injectable()
export class GovernanceEnforcer {
  private readonly timeoutMs: number;
  /** Counts requests while Redis is down in the `open` failure mode. */
  private local: MemoryCounterStore | undefined;

  constructor(
    private readonly policies: GovernancePolicies,
    private readonly counters: CounterStore,
    private readonly clock: Clock,
    private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.timeoutMs = parseDuration(config.governance.counter_timeout) ?? 500;
  }

  /** `governance.redis_failure_mode` changes at run time (PUT /api/config): read at each failure, never copied. */
  private get failOpen(): boolean {
    return this.config.governance.redis_failure_mode === 'open';
  }

  /** The request's governance, or undefined when no policy covers the key (no work on the request path then). */
  begin(virtualKeyId: string): GovernedCall | undefined | Promise<GovernedCall | undefined> {
    const current = this.policies.snapshot();
    if (isPending(current)) return current.then((snapshot) => this.callOf(snapshot, virtualKeyId));
    return this.callOf(current, virtualKeyId);
  }

  /** The current snapshot (the quota endpoint reads it). */
  snapshot(): GovernanceSnapshot | Promise<GovernanceSnapshot> {
    return this.policies.snapshot();
  }

  private callOf(snapshot: GovernanceSnapshot, virtualKeyId: string): GovernedCall | undefined {
    const policy = snapshot.virtualKey(virtualKeyId);
    return policy ? new GovernedCall(this, snapshot, policy) : undefined;
  }

  async admit(levels: readonly GovernedLevel[], estimate: UsageEstimate): Promise<Admission | undefined> {
    const entries = checksOf(levels, estimate);
    if (entries.length === 0) return undefined;
    const items = entries.map((e) => e.item);
    // Decided in this process (in-process counters, a lease held here): no round trip to bound, settled here too.
    const decided = this.counters.reserveLocally(items, HOLD_MS);
    if (decided) return this.admission(entries, decided, this.counters, true);
    let store = this.counters;
    let result: ReserveResult;
    try {
      // A reservation that Redis makes after the timeout (a queued command sent on reconnect) is given back.
      const remote = this.counters;
      const late = (r: ReserveResult) =>
        r.ok ? this.settle(remote.release(r.reservationId), 'late release') : undefined;
      result = await this.call(remote, (s) => s.reserve(items, HOLD_MS), late);
    } catch (err) {
      if (!(err instanceof CountersDown)) throw err;
      if (!this.failOpen) throw limitsUnavailable(err.cause);
      store = this.localStore();
      result = await store.reserve(items, HOLD_MS);
    }
    return this.admission(entries, result, store, store.kind === 'memory');
  }

  /** The admission of a reservation (`settledHere`: its settling needs no round trip, so no bound), or the refusal. */
  private admission(
    entries: Array<{ item: ReserveItem; check: LimitCheck }>,
    result: ReserveResult,
    store: CounterStore,
    settledHere: boolean,
  ): Admission {
    if (!result.ok) {
      const refused = entries.find((e) => e.item.key === result.key)!;
      throw limitRefusal(refused.check, { ...result, amount: refused.item.amount });
    }
    const headers = rateLimitHeaders(entries, result.states, this.clock.now());
    const settle = settledHere
      ? (work: Promise<unknown>) => void work.catch(() => undefined)
      : (work: Promise<unknown>, what: string) => this.settle(work, what);
    return new Admission(headers, result.reservationId, store, entries, settle);
  }

  /**
   * Charges a cost made outside a provider call (an MCP tool's price) to every budget of the key, its team and its
   * customers, after the fact: nothing is refused (the call has happened), and the next request sees the usage.
   * Settled in the background like a commit; a failure is logged.
   */
  charge(virtualKeyId: string, costUsd: number): void {
    if (!(costUsd > 0)) return;
    const charging = (async () => {
      const current = this.policies.snapshot();
      const snapshot = isPending(current) ? await current : current;
      const policy = snapshot.virtualKey(virtualKeyId);
      if (!policy) return;
      const budgets = [policy.level, ...(policy.team ? [policy.team] : []), ...policy.customers].flatMap(
        (level) => level.budgets,
      );
      await Promise.all(budgets.map((b) => this.counters.increment(budgetCounterKey(b.id), costUsd, b.window)));
    })();
    this.settle(charging, 'charge');
  }

  /** One counter as it stands (the quota endpoint), bounded like every counter call; 503 in the `closed` mode. */
  async read(key: string, window: CounterWindow): Promise<CounterState> {
    try {
      return await this.call(this.counters, (s) => s.get(key, window));
    } catch (err) {
      if (!(err instanceof CountersDown)) throw err;
      if (!this.failOpen) throw limitsUnavailable(err.cause);
      return this.localStore().get(key, window);
    }
  }

  /**
   * A counter call bounded by `governance.counter_timeout` when the counters are remote. `late` receives what the call
   * resolves to after the timeout gave up on it.
   */
  private async call<T>(
    store: CounterStore,
    run: (store: CounterStore) => Promise<T>,
    late?: (value: T) => void,
  ): Promise<T> {
    if (store.kind === 'memory') return run(store);
    let gaveUp = false;
    const running = run(store).then(
      (value) => {
        if (gaveUp) late?.(value);
        return value;
      },
      (err: unknown) => {
        throw new CountersDown('counter call failed', { cause: err });
      },
    );
    try {
      return await withTimeout(running, this.timeoutMs, 'counter call');
    } catch (err) {
      if (!(err instanceof TimedOut)) throw err;
      gaveUp = true;
      throw new CountersDown('counter call timed out');
    }
  }

  private localStore(): MemoryCounterStore {
    if (!this.local) {
      this.local = new MemoryCounterStore(this.clock);
      this.logger.warn('governance counters unreachable: counting in this process (redis_failure_mode: open)');
    }
    return this.local;
  }

  /** Settling happens after the answer: a failure is logged, never the caller's. */
  private settle(work: Promise<unknown>, what: string): void {
    withTimeout(work, Math.max(this.timeoutMs, 5_000), `governance ${what}`).catch((err: unknown) =>
      this.logger.warn(
        { err },
        what === 'charge'
          ? 'governance charge failed; the usage is not counted'
          : `governance ${what} failed; the reservation lapses on its own`,
      ),
    );
  }
}

/** A level's counters, computed once per snapshot object (levels are immutable; a rebuilt snapshot has new ones). */
interface LevelCounter {
  key: string;
  window: ReserveItem['window'];
  check: LimitCheck;
}
const levelCounters = new WeakMap<GovernedLevel, LevelCounter[]>();

function countersOf(level: GovernedLevel): LevelCounter[] {
  let out = levelCounters.get(level);
  if (out) return out;
  out = [];
  for (const budget of level.budgets) {
    const { id, limit, resetDuration, window } = budget;
    out.push({ key: budgetCounterKey(id), window, check: { level, kind: 'budget', ruleId: id, limit, resetDuration } });
  }
  const rl = level.rateLimit;
  if (rl?.requests) {
    const { limit, resetDuration, window } = rl.requests;
    const check: LimitCheck = { level, kind: 'requests', ruleId: rl.id, limit, resetDuration };
    out.push({ key: requestCounterKey(rl.id), window, check });
  }
  if (rl?.tokens) {
    const { limit, resetDuration, window } = rl.tokens;
    out.push({
      key: tokenCounterKey(rl.id),
      window,
      check: { level, kind: 'tokens', ruleId: rl.id, limit, resetDuration },
    });
  }
  levelCounters.set(level, out);
  return out;
}

/** The counters of a levels array, each once (levels arrays are kept per policy, so this is computed once). */
const levelsCounters = new WeakMap<readonly GovernedLevel[], LevelCounter[]>();

function countersOfLevels(levels: readonly GovernedLevel[]): LevelCounter[] {
  let out = levelsCounters.get(levels);
  if (out) return out;
  out = [];
  const keys = new Set<string>();
  for (const level of levels) {
    for (const counter of countersOf(level)) {
      if (keys.has(counter.key)) continue;
      keys.add(counter.key);
      out.push(counter);
    }
  }
  levelsCounters.set(levels, out);
  return out;
}

/** The reserve items of every budget and rate limit of `levels`, with what each stands for (duplicates once). */
function checksOf(
  levels: readonly GovernedLevel[],
  estimate: UsageEstimate,
): Array<{ item: ReserveItem; check: LimitCheck }> {
  const out: Array<{ item: ReserveItem; check: LimitCheck }> = [];
  const cost = Math.max(estimate.costUsd, MIN_BUDGET_RESERVATION);
  for (const { key, window, check } of countersOfLevels(levels)) {
    const amount = check.kind === 'budget' ? cost : check.kind === 'requests' ? 1 : estimate.tokens;
    out.push({ item: { key, amount, limit: check.limit, window }, check });
  }
  return out;
}

const HEADER_NAMES = {
  requests: ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'],
  tokens: ['x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'],
} as const;

/** `x-ratelimit-limit|remaining|reset-requests|tokens` of the tightest window of each kind (least remaining). */
function rateLimitHeaders(
  entries: ReadonlyArray<{ check: LimitCheck }>,
  states: ReadonlyArray<{ used: number; resetAt: number }>,
  now: number,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const unit of ['requests', 'tokens'] as const) {
    let best = -1;
    let bestRemaining = Infinity;
    for (let i = 0; i < entries.length; i++) {
      const { check } = entries[i]!;
      if (check.kind !== unit) continue;
      const remaining = Math.max(0, Math.floor(check.limit - states[i]!.used));
      if (remaining < bestRemaining) {
        best = i;
        bestRemaining = remaining;
      }
    }
    if (best < 0) continue;
    const [limitName, remainingName, resetName] = HEADER_NAMES[unit];
    headers[limitName] = String(entries[best]!.check.limit);
    headers[remainingName] = String(bestRemaining);
    headers[resetName] = resetText(states[best]!.resetAt - now);
  }
  return headers;
}
