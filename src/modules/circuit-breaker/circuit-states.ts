import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { Clock } from '../../core/clock/clock.js';
import { withTimeout } from '../../core/clock/with-timeout.js';
import { parseDuration } from '../../core/config/duration.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { LiveEvents } from '../../core/live/live-events.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import { MetricsService } from '../../core/metrics/metrics.service.js';
import { CounterStore } from '../../core/redis/counter.store.js';
import { InvalidationBus } from '../../core/redis/invalidation.bus.js';

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

/** An open circuit as this replica holds it (epoch ms). */
export interface OpenCircuit {
  openedAt: number;
  expiresAt: number;
  cooldownMs: number;
  headerName: string;
  headerValue: string;
}

/** Separates a policy name from a key id in a sub-circuit's key. */
export const SUB_CIRCUIT_SEPARATOR = '\x00';

/** Topic of circuit openings and closings, so every replica's mirror follows the shared state at once. */
const CIRCUITS_TOPIC = 'circuit-breaker.circuits';
/** Counter-store namespace of the circuit records (`<redis_prefix>:circuits:record:<circuit key>`). */
const CIRCUITS_NAMESPACE = 'circuits';
/** How often a replica re-reads every circuit from Redis, should a message have been lost. */
const RESYNC_MS = 5_000;

type CircuitMessage = { open: string; circuit: OpenCircuit } | { close: string[] };

/**
 * The open circuits, shared by every replica: one counter-store record per open circuit (in Redis with scale-out, with
 * its expiry), and on each replica a mirror the request path reads without any I/O. A replica that opens or closes a
 * circuit writes the record, then tells the others on the invalidation bus (before the request that opened it goes
 * on); every replica also re-reads all records every few seconds and after a reconnection. When Redis does not take
 * a write within `governance.counter_timeout`, the change holds on this replica, a warning metric counts it, and it is
 * written at the next successful re-read.
 */
@Injectable()
export class CircuitStates implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly store: CounterStore;
  /** Open circuits by key, expired ones included until the engine forgets them (after their probe). */
  private readonly mirror = new Map<string, OpenCircuit>();
  /** Circuits opened or closed here while Redis did not take it: written at the next successful resync. */
  private readonly unsynced = new Map<string, 'open' | 'close'>();
  private readonly unsubscribe: () => void;
  private resyncTimer?: NodeJS.Timeout;
  private readonly localOnly: Counter<'operation'>;
  private readonly timeoutMs: number;

  constructor(
    config: GatewayConfig,
    private readonly clock: Clock,
    private readonly bus: InvalidationBus,
    @Inject(LOGGER) private readonly logger: Logger,
    counters: CounterStore,
    metrics: MetricsService,
    private readonly live: LiveEvents,
  ) {
    this.store = counters.scoped(CIRCUITS_NAMESPACE);
    this.timeoutMs = parseDuration(config.governance.counter_timeout) ?? 500;
    this.unsubscribe = bus.subscribe(CIRCUITS_TOPIC, (message) => this.onMessage(message));
    this.localOnly = new Counter({
      name: 'gateway_circuit_breaker_local_state_total',
      help: 'Circuit state operations Redis did not take (evaluated on this replica only), by operation',
      labelNames: ['operation'] as const,
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap(): void {
    if (this.store.kind !== 'redis') return;
    void this.resync();
    this.resyncTimer = setInterval(() => void this.resync(), RESYNC_MS);
    this.resyncTimer.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe();
    if (this.resyncTimer) clearInterval(this.resyncTimer);
  }

  /** Whether this replica holds no circuit at all (open or awaiting its probe): the request path's fast case. */
  get empty(): boolean {
    return this.mirror.size === 0;
  }

  /** This replica's view of one circuit, expired or not. */
  get(key: string): OpenCircuit | undefined {
    return this.mirror.get(key);
  }

  /** Drops an expired circuit from this replica's view (its probe was answered without a signal). */
  forgetExpired(key: string): void {
    const circuit = this.mirror.get(key);
    if (circuit !== undefined && circuit.expiresAt <= this.clock.now()) {
      this.mirror.delete(key);
      this.announce('closed', key, { reason: 'probe_succeeded' });
    }
  }

  /** Opens (or opens again) a circuit here, in the shared record, and on every replica. */
  async open(key: string, circuit: OpenCircuit): Promise<void> {
    this.mirror.set(key, circuit);
    const ttlMs = Math.max(1, Math.ceil(circuit.expiresAt - circuit.openedAt));
    try {
      await this.bounded(this.store.putRecord(key, JSON.stringify(circuit), ttlMs));
      this.unsynced.delete(key);
    } catch (err) {
      this.warnLocal('open', err);
      this.unsynced.set(key, 'open');
    }
    await this.tell({ open: key, circuit });
    this.announce('opened', key, viewOf(circuit));
  }

  /** The open circuits, by circuit key (Redis's view with scale-out; this replica's when Redis cannot be read). */
  async list(): Promise<Record<string, OpenCircuitView>> {
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
    if (existed) this.announce('closed', key, { reason: 'closed_by_hand' });
    return existed;
  }

  /** Closes a policy's main circuit and every sub-circuit. */
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
    for (const key of keys) this.announce('closed', key, { reason: 'policy_deleted' });
  }

  /** Pushes an opening or closing to live-channel subscribers (docs/live-channel.md) from the replica that made it. */
  private announce(action: 'opened' | 'closed', key: string, data: object): void {
    this.live.publish({ type: 'circuit', resource: 'circuit', action, id: key, data, requires: 'CircuitBreaker' });
  }

  /** This replica's mirror now (the bus delivers locally first), the others' as soon as Redis relays it. */
  private tell(message: CircuitMessage): Promise<void> {
    return this.bounded(this.bus.publish(CIRCUITS_TOPIC, JSON.stringify(message))).catch(() => undefined);
  }

  /** A Redis call bounded by `governance.counter_timeout`: a request never waits on a Redis that does not answer. */
  private bounded<T>(call: Promise<T>): Promise<T> {
    return this.store.kind === 'memory' ? call : withTimeout(call, this.timeoutMs, 'circuit state');
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
