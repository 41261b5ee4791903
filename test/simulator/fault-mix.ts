import { type Plan, planOf, ScenarioError, type MatchInput } from './scenarios.js';
import type { ScenarioMatch } from './types.js';
import { FAMILY_NAMES, type FamilyName } from './types.js';

/**
 * The faults a fault mix draws from, each built from the scenario steps (README "Scenarios"):
 * - `rate_limit`: 429 in the family's shape with a `retry-after-ms` hint of `hint_ms` (default 100);
 * - `server_error`: 500; `overloaded`: 503 (Anthropic 529), with the mix's `overload_headers` if any;
 * - `reset`: the socket destroyed before any byte (a connection reset);
 * - `stall`: headers and 2 events (a unary answer: half its body), then silence with the socket open;
 * - `broken_stream`: 3 events (a unary answer: half its body), then the socket destroyed.
 */
export const FAULT_KINDS = ['rate_limit', 'server_error', 'overloaded', 'reset', 'stall', 'broken_stream'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultMixInput {
  /** Share of requests that get a fault, 0 to 1. */
  rate: number;
  /** Seed of the draws (same seed, same order of requests: same faults). Default 1. */
  seed?: number;
  /** Kinds drawn from, evenly. Default: all. */
  kinds?: FaultKind[];
  /** Only requests matching this (as a scenario's `match`) are drawn for; others are answered normally. */
  match?: ScenarioMatch;
  /** `retry-after-ms` hint of `rate_limit` (default 100). */
  hint_ms?: number;
  /** Extra headers on `overloaded` answers (a provider's overload signal, for a circuit breaker policy). */
  overload_headers?: Record<string, string>;
}

export interface FaultMixView {
  rate: number;
  seed: number;
  kinds: FaultKind[];
  match: ScenarioMatch;
  /** Requests drawn for, and faults injected by kind. */
  drawn: number;
  injected: Record<FaultKind, number>;
}

/** mulberry32: a small, fast, seeded generator (uniform in [0, 1)). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A seeded random fault mix: each request it matches draws once; with probability `rate` it gets one of `kinds`
 * (evenly), else the normal answer. Scenarios still win: a request a scenario claims is not drawn for.
 */
export class FaultMix {
  private readonly random: () => number;
  private readonly plans: Map<FaultKind, Plan>;
  private drawn = 0;
  private readonly injected = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;

  private constructor(
    private readonly rate: number,
    private readonly seed: number,
    private readonly kinds: FaultKind[],
    private readonly match: ScenarioMatch,
    hintMs: number,
    overloadHeaders: Record<string, string>,
  ) {
    this.random = seeded(seed);
    this.plans = new Map<FaultKind, Plan>([
      ['rate_limit', planOf({ fault: 'rate_limit', hint: 'retry-after-ms', hint_ms: hintMs })],
      ['server_error', planOf({ fault: 'error', status: 500 })],
      ['overloaded', planOf({ fault: 'overloaded', hint: 'none', headers: overloadHeaders })],
      ['reset', planOf({ fault: 'drop', after_events: 0 })],
      ['stall', planOf({ fault: 'stall', after_events: 2 })],
      ['broken_stream', planOf({ fault: 'drop', after_events: 3 })],
    ]);
  }

  /** Validates the input (ScenarioError naming the bad field). */
  static of(input: unknown): FaultMix {
    if (!isObj(input)) throw new ScenarioError('a fault mix must be an object');
    for (const k of Object.keys(input)) {
      if (!['rate', 'seed', 'kinds', 'match', 'hint_ms', 'overload_headers'].includes(k)) {
        throw new ScenarioError(`${k} is not a fault mix field`);
      }
    }
    const { rate, seed = 1, kinds = [...FAULT_KINDS], match = {}, hint_ms = 100, overload_headers = {} } = input;
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) throw new ScenarioError('rate must be between 0 and 1');
    if (typeof seed !== 'number' || !Number.isInteger(seed)) throw new ScenarioError('seed must be an integer');
    if (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((k) => !FAULT_KINDS.includes(k as FaultKind))) {
      throw new ScenarioError(`kinds must be a non-empty list of ${FAULT_KINDS.join(', ')}`);
    }
    if (typeof hint_ms !== 'number' || !Number.isInteger(hint_ms) || hint_ms < 0) {
      throw new ScenarioError('hint_ms must be a non-negative integer');
    }
    if (!isObj(overload_headers)) throw new ScenarioError('overload_headers must be an object');
    if (!isObj(match)) throw new ScenarioError('match must be an object');
    for (const [k, v] of Object.entries(match)) {
      if (!['family', 'path', 'model', 'key'].includes(k) || typeof v !== 'string') {
        throw new ScenarioError(`match.${k} must be a string field of family, path, model, key`);
      }
      if (k === 'family' && !FAMILY_NAMES.includes(v as FamilyName)) {
        throw new ScenarioError(`match.family must be one of ${FAMILY_NAMES.join(', ')}`);
      }
    }
    const headers = Object.fromEntries(Object.entries(overload_headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    return new FaultMix(rate, seed, kinds as FaultKind[], match, hint_ms, headers);
  }

  /** One draw for a request: the fault's plan and kind, or undefined for the normal answer. */
  draw(req: MatchInput): { kind: FaultKind; plan: Plan } | undefined {
    const m = this.match;
    if (m.family !== undefined && m.family !== req.family) return undefined;
    if (m.model !== undefined && m.model !== req.model) return undefined;
    if (m.key !== undefined && m.key !== req.key) return undefined;
    if (m.path !== undefined && !req.path.includes(m.path)) return undefined;
    this.drawn += 1;
    if (this.random() >= this.rate) return undefined;
    const kind = this.kinds[Math.min(this.kinds.length - 1, Math.floor(this.random() * this.kinds.length))]!;
    this.injected[kind] += 1;
    return { kind, plan: this.plans.get(kind)! };
  }

  view(): FaultMixView {
    return {
      rate: this.rate,
      seed: this.seed,
      kinds: [...this.kinds],
      match: { ...this.match },
      drawn: this.drawn,
      injected: { ...this.injected },
    };
  }
}
