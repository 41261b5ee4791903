import type { ProviderId } from '../inference/index.js';
import type { CircuitBreakerEngine } from './circuit-breaker.engine.js';

/** A policy as the request path reads it: header names and values lower-cased, the cooldown in ms. */
export interface CompiledPolicy {
  name: string;
  primary: { provider: ProviderId; model: string };
  fallback: { provider: ProviderId; model: string };
  /** `AND`: every signal must match; `OR`: one. */
  all: boolean;
  signals: ReadonlyArray<{ name: string; value?: string; contains?: string }>;
  cooldownMs: number;
  cooldownHeader?: string;
  keyIds: readonly string[];
}

/** What a tripped signal did: a key's sub-circuit opened, and/or a main circuit (the primary is done for now). */
export interface CircuitTrip {
  keyOpened?: string;
  divert?: { policy: string; to: { provider: ProviderId; model: string } };
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * The signal that satisfies the condition (the first matching one, as reported in the circuit's state), or undefined.
 * `header_value` matches exactly and `header_contains` as a substring, both case-insensitive; neither: presence.
 */
export function matchSignals(
  policy: CompiledPolicy,
  headers: Headers,
): { headerName: string; headerValue: string } | undefined {
  let first: { headerName: string; headerValue: string } | undefined;
  for (const signal of policy.signals) {
    const raw = headers[signal.name];
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    let matched = value !== undefined;
    if (matched && signal.value !== undefined) matched = value!.trim().toLowerCase() === signal.value;
    else if (matched && signal.contains !== undefined) matched = value!.toLowerCase().includes(signal.contains);
    if (matched) {
      first ??= { headerName: signal.name, headerValue: value! };
      if (!policy.all) return first;
    } else if (policy.all) {
      return undefined;
    }
  }
  return first;
}

/**
 * The breakers' view of one model of one request: the keys to skip (open sub-circuits), the probes it holds, and the
 * policies that read the primary's response headers. While no circuit is open anywhere, one watch per primary serves
 * every request (its set and list stay empty), so a watched request allocates nothing.
 */
export class CircuitWatch {
  /** Key ids whose sub-circuit is open: key selection skips them. */
  readonly excluded = new Set<string>();
  /** Main circuits this request probes (expired, so it is the one request that calls the primary). */
  readonly probes: string[] = [];

  constructor(
    private readonly engine: CircuitBreakerEngine,
    private readonly policies: readonly CompiledPolicy[],
  ) {}

  /**
   * Shows a response of the primary (success or error, or a stream's headers) to every policy watching it. Undefined
   * (synchronously) when no condition holds, which is the common case.
   */
  observe(headers: Headers, keyId: string): Promise<CircuitTrip> | undefined {
    let trips: Array<Promise<CircuitTrip>> | undefined;
    for (const policy of this.policies) {
      const signal = matchSignals(policy, headers);
      if (signal === undefined) continue;
      (trips ??= []).push(this.engine.trip(policy, headers, keyId, signal));
    }
    if (trips === undefined) return undefined;
    return Promise.all(trips).then((all) => {
      const trip: CircuitTrip = {};
      for (const t of all) {
        trip.keyOpened ??= t.keyOpened;
        trip.divert ??= t.divert;
      }
      return trip;
    });
  }

  /** The request is done with the primary: its probes are answered. */
  release(): void {
    for (const name of this.probes) this.engine.releaseProbe(name);
    this.probes.length = 0;
  }
}
