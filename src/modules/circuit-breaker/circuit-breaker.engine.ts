import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { CacheFactory } from '../../core/cache/cache.factory.js';
import { SnapshotHolder } from '../../core/cache/snapshot-holder.js';
import { Clock } from '../../core/clock/clock.js';
import { parseDuration, parseGoDuration } from '../../core/config/duration.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import type { ProviderId } from '../../core/errors/routing-info.dto.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import { MetricsService } from '../../core/metrics/metrics.service.js';
import { CounterStore } from '../../core/redis/counter.store.js';
import { InvalidationBus } from '../../core/redis/invalidation.bus.js';
import { CircuitBreakerPolicyEntity } from './entities/circuit-breaker-policy.entity.js';
import { CircuitWatch, type CircuitTrip, type CompiledPolicy } from './circuit-watch.js';

/** One open circuit as `GET /api/circuit-breaker/state` shows it (closed circuits are absent). */
export interface OpenCircuitView {
  status: 'open';
  opened_at: string;
  expires_at: string;
  /** The cooldown applied, in integer nanoseconds (as this product family reads durations back). */
  cooldown: number;
  /** The header that tripped it, as the primary sent it. */
  signal: { header_name: string; header_value: string };
}

/** Separates a policy name from a key id in a sub-circuit's key. */
export const SUB_CIRCUIT_SEPARATOR = '\x00';

/** Invalidation topic of policy changes (the policy snapshot is rebuilt on every replica). */
export const CIRCUIT_POLICIES_TOPIC = 'circuit-breaker.policies';
/** Topic of circuit openings and closings, so every replica's mirror follows the shared state at once. */
const CIRCUITS_TOPIC = 'circuit-breaker.circuits';
/** Counter-store namespace of the circuit records (`<redis_prefix>:circuits:record:<circuit key>`). */
const CIRCUITS_NAMESPACE = 'circuits';
/** How often a replica re-reads every circuit from Redis, should a message have been lost. */
const RESYNC_MS = 5_000;

/** An open circuit as this replica holds it (epoch ms). */
export interface OpenCircuit {
  openedAt: number;
  expiresAt: number;
  cooldownMs: number;
  headerName: string;
  headerValue: string;
}

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

type CircuitMessage = { open: string; circuit: OpenCircuit } | { close: string[] };

/**
 * Circuit breakers on the request path. Reads only memory: the compiled policies (a snapshot rebuilt on change on
 * every replica) and a mirror of the open circuits. The shared state is one counter-store record per open circuit
 * (in Redis with scale-out, with its expiry); a replica that opens or closes one writes the record, then tells the
 * others on the invalidation bus before the request that opened it goes on, and every replica re-reads all records
 * every few seconds and after a reconnection. When Redis cannot be written, the circuit is still open here and a
 * warning metric counts it.
 *
 * Expiry is judged by the gateway clock against the stored `expires_at`; an expired circuit is closed, and the first
 * request after it is the probe: one per replica at a time, the others keep going to the fallback until it is
 * answered.
 */
@Injectable()
export class CircuitBreakerEngine implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly holder: SnapshotHolder<PolicySet>;
  private readonly store: CounterStore;
  /** Open circuits by key, expired ones included until their probe is answered. */
  private readonly mirror = new Map<string, OpenCircuit>();
  /** Main circuits whose probe is in flight on this replica. */
  private readonly probing = new Set<string>();
  /** Circuits opened or closed here while Redis did not take it: written at the next successful resync. */
  private readonly unsynced = new Map<string, 'open' | 'close'>();
  private readonly unsubscribe: () => void;
  private resyncTimer?: NodeJS.Timeout;
  private readonly opened: Counter<'policy' | 'circuit'>;
  private readonly diverted: Counter<'policy'>;
  private readonly localOnly: Counter<'operation'>;
  /** Redis calls of the request path give up after `governance.counter_timeout` (the circuit is then local). */
  private readonly timeoutMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: GatewayConfig,
    private readonly clock: Clock,
    private readonly bus: InvalidationBus,
    @Inject(LOGGER) private readonly logger: Logger,
    counters: CounterStore,
    caches: CacheFactory,
    metrics: MetricsService,
  ) {
    this.holder = new SnapshotHolder(CIRCUIT_POLICIES_TOPIC, () => this.build(), logger, caches, bus);
    this.store = counters.scoped(CIRCUITS_NAMESPACE);
    this.timeoutMs = parseDuration(config.governance.counter_timeout) ?? 500;
    this.unsubscribe = bus.subscribe(CIRCUITS_TOPIC, (message) => this.onMessage(message));
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
    this.localOnly = new Counter({
      name: 'gateway_circuit_breaker_local_state_total',
      help: 'Circuit state operations Redis did not take (evaluated on this replica only), by operation',
      labelNames: ['operation'] as const,
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap(): void {
    this.holder.warm();
    if (this.store.kind === 'redis') {
      void this.resync();
      this.resyncTimer = setInterval(() => void this.resync(), RESYNC_MS);
      this.resyncTimer.unref();
    }
  }

  onModuleDestroy(): void {
    this.holder.close();
    this.unsubscribe();
    if (this.resyncTimer) clearInterval(this.resyncTimer);
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
    if (current instanceof Promise) return current.then((set) => this.decide(set, provider, model, keys));
    if (current.byPrimary.size === 0) return undefined;
    return this.decide(current, provider, model, keys);
  }

  /** The open circuits, by circuit key (Redis's view with scale-out; this replica's when Redis cannot be read). */
  async openCircuits(): Promise<Record<string, OpenCircuitView>> {
    const now = this.clock.now();
    let circuits: Map<string, OpenCircuit>;
    try {
      circuits = parseRecords(await this.bounded(this.store.records('')));
    } catch (err) {
      this.warnLocal('read', err);
      circuits = this.mirror;
    }
    const out: Record<string, OpenCircuitView> = {};
    for (const key of [...circuits.keys()].sort()) {
      const circuit = circuits.get(key)!;
      if (circuit.expiresAt > now) out[key] = viewOf(circuit);
    }
    return out;
  }

  /** Closes one circuit by hand; false when it was not open. */
  async close(key: string): Promise<boolean> {
    const now = this.clock.now();
    const local = this.mirror.get(key);
    let existed = local !== undefined && local.expiresAt > now;
    try {
      const stored = (await this.bounded(this.store.records(key))).get(key);
      existed ||= stored !== undefined && (parseCircuit(stored)?.expiresAt ?? 0) > now;
      await this.bounded(this.store.deleteRecords([key]));
    } catch (err) {
      this.warnLocal('close', err);
      this.unsynced.set(key, 'close');
    }
    await this.tell({ close: [key] });
    return existed;
  }

  /** Closes a policy's main circuit and every sub-circuit (policy deleted or changed). */
  async discard(policyName: string): Promise<void> {
    const ours = (key: string) => key === policyName || key.startsWith(policyName + SUB_CIRCUIT_SEPARATOR);
    const keys = new Set([...this.mirror.keys()].filter(ours));
    try {
      for (const key of (await this.bounded(this.store.records(policyName))).keys()) if (ours(key)) keys.add(key);
      await this.bounded(this.store.deleteRecords([...keys]));
    } catch (err) {
      this.warnLocal('close', err);
      for (const key of keys) this.unsynced.set(key, 'close');
    }
    if (keys.size > 0) await this.tell({ close: [...keys] });
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
    if (this.mirror.size === 0) return watched.idle;
    const policies = watched.policies;
    const now = this.clock.now();
    const watch = new CircuitWatch(this, policies);
    for (const policy of policies) {
      const main = this.mirror.get(policy.name);
      if (main !== undefined) {
        if (main.expiresAt > now || this.probing.has(policy.name)) {
          watch.release();
          return this.divert(policy, `Circuit '${policy.name}' is open`);
        }
        // Expired: this request is the probe; concurrent ones go to the fallback until it is answered.
        this.probing.add(policy.name);
        watch.probes.push(policy.name);
      }
      for (const keyId of policy.keyIds) {
        const sub = this.mirror.get(policy.name + SUB_CIRCUIT_SEPARATOR + keyId);
        if (sub !== undefined && sub.expiresAt > now) watch.excluded.add(keyId);
      }
      if (watch.excluded.size > 0 && keys.every((k) => watch.excluded.has(k.id))) {
        watch.release();
        return this.divert(policy, `Every key of circuit '${policy.name}' that may serve the request is open`);
      }
    }
    return { kind: 'watch', watch };
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
      const sub = this.mirror.get(policy.name + SUB_CIRCUIT_SEPARATOR + id);
      if (sub === undefined || sub.expiresAt <= now) return { keyOpened: keyId };
      until = Math.min(until, sub.expiresAt);
    }
    await this.open(policy.name, { ...circuit, expiresAt: until, cooldownMs: until - now }, 'main');
    return { keyOpened: keyId, divert: this.divertAfterTrip(policy) };
  }

  /** A probe was answered (or the request ended first): the expired circuit it stood for is closed on this replica. */
  releaseProbe(name: string): void {
    this.probing.delete(name);
    const circuit = this.mirror.get(name);
    if (circuit !== undefined && circuit.expiresAt <= this.clock.now()) this.mirror.delete(name);
  }

  private divertAfterTrip(policy: CompiledPolicy): { policy: string; to: { provider: ProviderId; model: string } } {
    return { policy: policy.name, to: policy.fallback };
  }

  private async open(key: string, circuit: OpenCircuit, kind: 'main' | 'sub'): Promise<void> {
    this.mirror.set(key, circuit);
    this.opened.inc({ policy: key.split(SUB_CIRCUIT_SEPARATOR)[0]!, circuit: kind });
    const ttlMs = Math.max(1, Math.ceil(circuit.expiresAt - circuit.openedAt));
    try {
      await this.bounded(this.store.putRecord(key, JSON.stringify(circuit), ttlMs));
      this.unsynced.delete(key);
    } catch (err) {
      this.warnLocal('open', err);
      this.unsynced.set(key, 'open');
    }
    await this.tell({ open: key, circuit });
  }

  /** This replica's mirror now (the bus delivers locally first), the others' as soon as Redis relays it. */
  private tell(message: CircuitMessage): Promise<void> {
    return this.bounded(this.bus.publish(CIRCUITS_TOPIC, JSON.stringify(message))).catch(() => undefined);
  }

  /** A Redis call bounded by `governance.counter_timeout`: a request never waits on a Redis that does not answer. */
  private async bounded<T>(call: Promise<T>): Promise<T> {
    if (this.store.kind === 'memory') return call;
    call.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('circuit state call timed out')), this.timeoutMs);
    });
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private onMessage(message: string | undefined): void {
    if (message === undefined) {
      // Messages may have been lost (a reconnection): read everything again.
      void this.resync();
      return;
    }
    let parsed: CircuitMessage;
    try {
      parsed = JSON.parse(message) as CircuitMessage;
    } catch {
      return;
    }
    if ('open' in parsed) {
      const circuit = parseCircuit(JSON.stringify(parsed.circuit));
      if (circuit) this.mirror.set(parsed.open, circuit);
    } else if (Array.isArray(parsed.close)) {
      for (const key of parsed.close) this.mirror.delete(key);
    }
  }

  /**
   * Makes the mirror Redis's open circuits (expired ones awaiting their probe stay), after writing what this replica
   * opened or closed while Redis was away.
   */
  private async resync(): Promise<void> {
    const startedAt = this.clock.now();
    let stored: Map<string, OpenCircuit>;
    try {
      await this.writeUnsynced();
      stored = parseRecords(await this.bounded(this.store.records('')));
    } catch (err) {
      this.warnLocal('read', err);
      return;
    }
    const now = this.clock.now();
    for (const [key, circuit] of this.mirror) {
      // Gone from Redis while still running here: closed elsewhere, its message lost (unless it opened meanwhile).
      if (!stored.has(key) && circuit.expiresAt > now && circuit.openedAt < startedAt) this.mirror.delete(key);
    }
    for (const [key, circuit] of stored) {
      const local = this.mirror.get(key);
      if (local === undefined || local.openedAt <= circuit.openedAt) this.mirror.set(key, circuit);
    }
  }

  private async writeUnsynced(): Promise<void> {
    for (const [key, change] of [...this.unsynced]) {
      const circuit = this.mirror.get(key);
      const ttlMs = circuit ? Math.ceil(circuit.expiresAt - this.clock.now()) : 0;
      if (change === 'open' && circuit && ttlMs > 0) {
        await this.bounded(this.store.putRecord(key, JSON.stringify(circuit), ttlMs));
      } else if (change === 'close') {
        await this.bounded(this.store.deleteRecords([key]));
      }
      this.unsynced.delete(key);
    }
  }

  private warnLocal(operation: 'open' | 'close' | 'read', err: unknown): void {
    this.localOnly.inc({ operation });
    this.logger.warn({ err: (err as Error).message, operation }, 'circuit state: Redis unavailable, this replica only');
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

function viewOf(circuit: OpenCircuit): OpenCircuitView {
  return {
    status: 'open',
    opened_at: new Date(circuit.openedAt).toISOString(),
    expires_at: new Date(circuit.expiresAt).toISOString(),
    cooldown: Math.round(circuit.cooldownMs * 1e6),
    signal: { header_name: circuit.headerName, header_value: circuit.headerValue },
  };
}

function parseCircuit(text: string): OpenCircuit | undefined {
  try {
    const c = JSON.parse(text) as Partial<OpenCircuit>;
    if (typeof c.openedAt !== 'number' || typeof c.expiresAt !== 'number' || typeof c.cooldownMs !== 'number') {
      return undefined;
    }
    return {
      openedAt: c.openedAt,
      expiresAt: c.expiresAt,
      cooldownMs: c.cooldownMs,
      headerName: String(c.headerName ?? ''),
      headerValue: String(c.headerValue ?? ''),
    };
  } catch {
    return undefined;
  }
}

function parseRecords(records: Map<string, string>): Map<string, OpenCircuit> {
  const out = new Map<string, OpenCircuit>();
  for (const [key, text] of records) {
    const circuit = parseCircuit(text);
    if (circuit) out.set(key, circuit);
  }
  return out;
}
