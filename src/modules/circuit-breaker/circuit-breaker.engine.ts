import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { CacheFactory } from '../../core/cache/cache.factory.js';
import { SnapshotHolder } from '../../core/cache/snapshot-holder.js';
import { Clock } from '../../core/clock/clock.js';
import { parseGoDuration } from '../../core/config/duration.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import type { ProviderId } from '../inference/index.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import { MetricsService } from '../../core/metrics/metrics.service.js';
import { InvalidationBus } from '../../core/redis/invalidation.bus.js';
import { CircuitBreakerPolicyEntity } from './entities/circuit-breaker-policy.entity.js';
import { CircuitStates, SUB_CIRCUIT_SEPARATOR, type OpenCircuit } from './circuit-states.js';
import { CircuitWatch, type CircuitTrip, type CompiledPolicy } from './circuit-watch.js';
import { isPending } from '../../core/async/maybe-promise.js';

/** Invalidation topic of policy changes (the policy snapshot is rebuilt on every replica). */
export const CIRCUIT_POLICIES_TOPIC = 'circuit-breaker.policies';
/** The policies watching one primary (name order), and the admission every request gets while nothing is open. */
interface WatchedPrimary {
  policies: readonly CompiledPolicy[];
  idle: CircuitAdmission;
}

/** The enabled policies, compiled for the request path. */
interface PolicySet {
  /** By `<provider>/<model>` of the primary. */
  byPrimary: ReadonlyMap<string, WatchedPrimary>;
}

/** What the breakers decide for one model of a request's fallback chain. */
export type CircuitAdmission =
  /** The primary is not called: the request goes to the policy's fallback (`error` is the primary's log entry). */
  | { kind: 'divert'; policy: string; to: { provider: ProviderId; model: string }; error: GatewayException }
  /** The primary is called; its responses are shown to the watch, and keys of open sub-circuits are skipped. */
  | { kind: 'watch'; watch: CircuitWatch };

/**
 * Circuit breakers on the request path: which model serves, and what the primary's response headers do. Reads only
 * memory: the compiled policies (a snapshot rebuilt on change on every replica) and `CircuitStates`' mirror of the
 * open circuits. Expiry is judged by the gateway clock against the circuit's `expires_at`; an expired circuit is
 * closed, and the first request after it is the probe: one per replica at a time, the others keep going to the
 * fallback until it is answered.
 */
@Injectable()
export class CircuitBreakerEngine implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly holder: SnapshotHolder<PolicySet>;
  /** Main circuits whose probe is in flight on this replica. */
  private readonly probing = new Set<string>();
  private readonly opened: Counter<'policy' | 'circuit'>;
  private readonly diverted: Counter<'policy'>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly states: CircuitStates,
    @Inject(LOGGER) logger: Logger,
    caches: CacheFactory,
    bus: InvalidationBus,
    metrics: MetricsService,
  ) {
    this.holder = new SnapshotHolder(CIRCUIT_POLICIES_TOPIC, () => this.build(), logger, caches, bus);
    this.opened = new Counter({
      name: 'gateway_circuit_breaker_opened_total',
      help: 'Circuits opened by a signal of the primary, by policy and circuit (main, or sub for a key)',
      labelNames: ['policy', 'circuit'] as const,
      registers: [metrics.registry],
    });
    this.diverted = new Counter({
      name: 'gateway_circuit_breaker_diverted_total',
      help: 'Requests sent to the fallback without calling the primary because its circuit was open (circuit_open)',
      labelNames: ['policy'] as const,
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap(): void {
    this.holder.warm();
  }

  onModuleDestroy(): void {
    this.holder.close();
  }

  /** After a committed policy change: every replica rebuilds its policy snapshot before its next request. */
  policiesChanged(): Promise<void> {
    return this.holder.invalidate();
  }

  /**
   * The breakers' decision for a model about to be tried: undefined when no enabled policy watches it (synchronous,
   * no allocation); a diversion when a circuit is open (or every key the request may use has an open sub-circuit);
   * else a watch. `keys` are the keys the router may pick for the model.
   */
  admit(
    provider: ProviderId,
    model: string,
    keys: ReadonlyArray<{ id: string }>,
  ): CircuitAdmission | undefined | Promise<CircuitAdmission | undefined> {
    const current = this.holder.get();
    if (isPending(current)) return current.then((set) => this.decide(set, provider, model, keys));
    if (current.byPrimary.size === 0) return undefined;
    return this.decide(current, provider, model, keys);
  }

  private decide(
    set: PolicySet,
    provider: ProviderId,
    model: string,
    keys: ReadonlyArray<{ id: string }>,
  ): CircuitAdmission | undefined {
    const watched = set.byPrimary.get(`${provider}/${model}`);
    if (watched === undefined) return undefined;
    // Nothing open (nor awaiting its probe) on this replica: the shared watch, no allocation.
    if (this.states.empty) return watched.idle;
    const policies = watched.policies;
    const now = this.clock.now();
    // A watch of this request's own only when it holds a probe or skips keys; else the shared one.
    let watch: CircuitWatch | undefined;
    for (const policy of policies) {
      const main = this.states.get(policy.name);
      if (main !== undefined) {
        if (main.expiresAt > now || this.probing.has(policy.name)) {
          watch?.release();
          return this.divert(policy, `Circuit '${policy.name}' is open`);
        }
        // Expired: this request is the probe; concurrent ones go to the fallback until it is answered.
        this.probing.add(policy.name);
        (watch ??= new CircuitWatch(this, policies)).probes.push(policy.name);
      }
      for (const keyId of policy.keyIds) {
        const sub = this.states.get(policy.name + SUB_CIRCUIT_SEPARATOR + keyId);
        if (sub !== undefined && sub.expiresAt > now) (watch ??= new CircuitWatch(this, policies)).excluded.add(keyId);
      }
      const excluded = watch?.excluded;
      if (excluded !== undefined && excluded.size > 0 && keys.every((k) => excluded.has(k.id))) {
        watch!.release();
        return this.divert(policy, `Every key of circuit '${policy.name}' that may serve the request is open`);
      }
    }
    return watch === undefined ? watched.idle : { kind: 'watch', watch };
  }

  private divert(policy: CompiledPolicy, message: string): CircuitAdmission {
    this.diverted.inc({ policy: policy.name });
    const { provider, model } = policy.primary;
    const error = new GatewayException(503, 'circuit_open', `${message}: ${provider}/${model} is not called`, {
      reason: 'circuit_open',
      extraFields: { circuit_breaker_policy: policy.name },
    });
    return { kind: 'divert', policy: policy.name, to: policy.fallback, error };
  }

  /** Called by a watch when a response of the primary satisfied a policy's condition. */
  async trip(
    policy: CompiledPolicy,
    headers: Record<string, string | string[] | undefined>,
    keyId: string,
    signal: { headerName: string; headerValue: string },
  ): Promise<CircuitTrip> {
    const now = this.clock.now();
    const cooldownMs = cooldownOf(policy, headers);
    const circuit: OpenCircuit = {
      openedAt: now,
      expiresAt: now + cooldownMs,
      cooldownMs,
      headerName: signal.headerName,
      headerValue: signal.headerValue,
    };
    if (policy.keyIds.length === 0) {
      await this.open(policy.name, circuit, 'main');
      return { divert: this.divertAfterTrip(policy) };
    }
    if (!policy.keyIds.includes(keyId)) return {};
    await this.open(policy.name + SUB_CIRCUIT_SEPARATOR + keyId, circuit, 'sub');
    // The main circuit opens once every listed key is open, until the first of them closes.
    let until = Infinity;
    for (const id of policy.keyIds) {
      const sub = this.states.get(policy.name + SUB_CIRCUIT_SEPARATOR + id);
      if (sub === undefined || sub.expiresAt <= now) return { keyOpened: keyId };
      until = Math.min(until, sub.expiresAt);
    }
    await this.open(policy.name, { ...circuit, expiresAt: until, cooldownMs: until - now }, 'main');
    return { keyOpened: keyId, divert: this.divertAfterTrip(policy) };
  }

  /** A probe was answered (or the request ended first): the expired circuit it stood for is closed on this replica. */
  releaseProbe(name: string): void {
    this.probing.delete(name);
    this.states.forgetExpired(name);
  }

  private divertAfterTrip(policy: CompiledPolicy): { policy: string; to: { provider: ProviderId; model: string } } {
    return { policy: policy.name, to: policy.fallback };
  }

  private async open(key: string, circuit: OpenCircuit, kind: 'main' | 'sub'): Promise<void> {
    this.opened.inc({ policy: key.split(SUB_CIRCUIT_SEPARATOR)[0]!, circuit: kind });
    await this.states.open(key, circuit);
  }

  private async build(): Promise<PolicySet> {
    const rows = await this.dataSource.getRepository(CircuitBreakerPolicyEntity).find({ where: { enabled: true } });
    rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const lists = new Map<string, CompiledPolicy[]>();
    for (const row of rows) {
      const key = `${row.primary_provider}/${row.primary_model}`;
      const list = lists.get(key) ?? [];
      list.push({
        name: row.name,
        primary: { provider: row.primary_provider, model: row.primary_model },
        fallback: { provider: row.fallback_provider, model: row.fallback_model },
        all: row.condition.operator === 'AND',
        signals: row.condition.signals.map((s) => ({
          name: s.header_name.toLowerCase(),
          value: s.header_value?.toLowerCase(),
          contains: s.header_contains?.toLowerCase(),
        })),
        cooldownMs: parseGoDuration(row.default_cooldown) ?? 30_000,
        cooldownHeader: row.cooldown_header?.toLowerCase() ?? undefined,
        keyIds: row.primary_key_ids,
      });
      lists.set(key, list);
    }
    const byPrimary = new Map<string, WatchedPrimary>();
    for (const [key, policies] of lists) {
      byPrimary.set(key, { policies, idle: { kind: 'watch', watch: new CircuitWatch(this, policies) } });
    }
    return { byPrimary };
  }
}

/** `cooldown_header`'s value in milliseconds when present and a positive number, else the policy's default. */
function cooldownOf(policy: CompiledPolicy, headers: Record<string, string | string[] | undefined>): number {
  if (policy.cooldownHeader === undefined) return policy.cooldownMs;
  const raw = headers[policy.cooldownHeader];
  const text = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return policy.cooldownMs;
  const ms = Number(text);
  return ms > 0 && Number.isFinite(ms) ? ms : policy.cooldownMs;
}
