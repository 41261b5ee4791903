import type { AnswerKnobs, FamilyName, RetryHintKind, ScenarioMatch, UsageKnobs } from './types.js';
import { FAMILY_NAMES } from './types.js';

/** How a normal answer misbehaves while it is written. Event counts are frames (SSE events, JSON array elements). */
export interface StreamFaults {
  chunkDelayMs: number;
  /** Stop writing after this many events; the socket stays open (headers are sent even for 0). */
  stallAfter?: number;
  /** Destroy the socket after this many events (0: before any byte). */
  dropAfter?: number;
  /** Send this event (0-based) as a truncated, unparseable frame, then carry on. */
  malformedAt?: number;
  /** After this many events send the family's in-stream error event and end (a unary request gets a 500). */
  errorAfter?: number;
}

/** What one request gets: a normalised response step. */
export type Outcome =
  | { kind: 'raw'; status: number; headers: Record<string, string>; body: string }
  /** A native error body; `overloaded` is 529 on Anthropic and 503 elsewhere. */
  | {
      kind: 'error';
      status: number;
      overloaded: boolean;
      hint?: RetryHintKind;
      hintMs: number;
      message?: string;
      code?: string;
    }
  | { kind: 'empty' }
  | { kind: 'answer'; knobs: AnswerKnobs; faults: StreamFaults };

export interface Plan {
  delayMs: number;
  outcome: Outcome;
  /** Extra response headers, whatever the outcome (circuit breaker signals on answers and errors alike). */
  headers?: Record<string, string>;
}

export class ScenarioError extends Error {}

const NO_FAULTS: StreamFaults = { chunkDelayMs: 0 };
export const DEFAULT_PLAN: Plan = { delayMs: 0, outcome: { kind: 'answer', knobs: {}, faults: NO_FAULTS } };

const HINTS = new Set<RetryHintKind>([
  'retry-after-seconds',
  'retry-after-date',
  'retry-after-ms',
  'gemini-retry-info',
  'none',
]);
const USAGE_FIELDS = new Set([
  'input_tokens',
  'output_tokens',
  'cached_read_tokens',
  'cached_write_tokens',
  'reasoning_tokens',
  'web_search_requests',
  'citation_tokens',
]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function count(step: Obj, field: string, at: string, fallback?: number): number | undefined {
  const v = step[field];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new ScenarioError(`${at}.${field} must be a non-negative integer`);
  }
  return v;
}

function knobs(step: Obj, at: string): AnswerKnobs {
  const out: AnswerKnobs = {};
  if (step.text !== undefined) {
    if (typeof step.text !== 'string') throw new ScenarioError(`${at}.text must be a string`);
    out.text = step.text;
  }
  if (step.model !== undefined) {
    if (typeof step.model !== 'string') throw new ScenarioError(`${at}.model must be a string`);
    out.model = step.model;
  }
  if (step.framing !== undefined) {
    if (step.framing !== 'lf' && step.framing !== 'crlf') throw new ScenarioError(`${at}.framing must be lf or crlf`);
    out.framing = step.framing;
  }
  if (step.tool_calls !== undefined) {
    if (!Array.isArray(step.tool_calls) || step.tool_calls.length === 0) {
      throw new ScenarioError(`${at}.tool_calls must be a non-empty array`);
    }
    out.tool_calls = step.tool_calls.map((c: unknown, i) => {
      if (!isObj(c) || typeof c.name !== 'string' || c.name === '') {
        throw new ScenarioError(`${at}.tool_calls[${i}].name must be a non-empty string`);
      }
      if (c.arguments !== undefined && !isObj(c.arguments)) {
        throw new ScenarioError(`${at}.tool_calls[${i}].arguments must be an object`);
      }
      return { name: c.name, arguments: c.arguments };
    });
  }
  if (step.usage !== undefined) {
    if (!isObj(step.usage)) throw new ScenarioError(`${at}.usage must be an object`);
    const usage: UsageKnobs = {};
    for (const [k, v] of Object.entries(step.usage)) {
      if (k === 'cost') {
        if (typeof v !== 'number' && !isObj(v)) throw new ScenarioError(`${at}.usage.cost must be a number or object`);
        usage.cost = v as UsageKnobs['cost'];
      } else if (USAGE_FIELDS.has(k)) {
        (usage as Record<string, number | undefined>)[k] = count(step.usage, k, `${at}.usage`);
      } else {
        throw new ScenarioError(`${at}.usage.${k} is not a usage knob`);
      }
    }
    out.usage = usage;
  }
  return out;
}

function answer(step: Obj, at: string, faults: Partial<StreamFaults>): Outcome {
  return {
    kind: 'answer',
    knobs: knobs(step, at),
    faults: { chunkDelayMs: count(step, 'chunk_delay_ms', at, 0)!, ...faults },
  };
}

function outcome(step: Obj, at: string): Outcome {
  if (step.ok === true) return answer(step, at, {});
  if (step.fault === undefined) {
    const status = count(step, 'status', at);
    if (status === undefined || status < 100 || status > 599) {
      throw new ScenarioError(`${at} needs ok: true, a fault, or a status between 100 and 599`);
    }
    const headers: Record<string, string> = {};
    if (step.headers !== undefined) {
      if (!isObj(step.headers)) throw new ScenarioError(`${at}.headers must be an object`);
      for (const [k, v] of Object.entries(step.headers)) headers[k.toLowerCase()] = String(v);
    }
    let body = '';
    if (typeof step.body === 'string') body = step.body;
    else if (step.body !== undefined) {
      body = JSON.stringify(step.body);
      headers['content-type'] ??= 'application/json';
    }
    return { kind: 'raw', status, headers, body };
  }
  const after = (fallback: number) => count(step, 'after_events', at, fallback)!;
  switch (step.fault as string) {
    case 'rate_limit':
    case 'overloaded': {
      if (step.hint !== undefined && !HINTS.has(step.hint as RetryHintKind)) {
        throw new ScenarioError(`${at}.hint must be one of ${[...HINTS].join(', ')}`);
      }
      return {
        kind: 'error',
        status: 429,
        overloaded: step.fault === 'overloaded',
        hint: step.hint as RetryHintKind | undefined,
        hintMs: count(step, 'hint_ms', at, 1000)!,
        message: typeof step.message === 'string' ? step.message : undefined,
        code: typeof step.code === 'string' ? step.code : undefined,
      };
    }
    case 'error': {
      const status = count(step, 'status', at);
      if (status === undefined || status < 400 || status > 599) {
        throw new ScenarioError(`${at}.status must be an error status (400-599)`);
      }
      return {
        kind: 'error',
        status,
        overloaded: false,
        hintMs: 0,
        hint: 'none',
        message: typeof step.message === 'string' ? step.message : undefined,
        code: typeof step.code === 'string' ? step.code : undefined,
      };
    }
    case 'delay':
      if (step.delay_ms === undefined) throw new ScenarioError(`${at}.delay_ms is required`);
      return answer(step, at, {});
    case 'chunk_delay':
      if (step.chunk_delay_ms === undefined) throw new ScenarioError(`${at}.chunk_delay_ms is required`);
      return answer(step, at, {});
    case 'stall':
      return answer(step, at, { stallAfter: after(2) });
    case 'drop':
      return answer(step, at, { dropAfter: after(2) });
    case 'malformed_chunk':
      return answer(step, at, { malformedAt: after(1) });
    case 'stream_error':
      return answer(step, at, { errorAfter: after(2) });
    case 'empty_200':
      return { kind: 'empty' };
    default:
      throw new ScenarioError(`${at}.fault ${JSON.stringify(step.fault)} is not a known fault`);
  }
}

/** Validates one response step and normalises it. Throws ScenarioError naming the bad field. */
export function planOf(step: unknown, at = 'step'): Plan {
  if (!isObj(step)) throw new ScenarioError(`${at} must be an object`);
  const plan: Plan = { delayMs: count(step, 'delay_ms', at, 0)!, outcome: outcome(step, at) };
  if (step.headers !== undefined && plan.outcome.kind !== 'raw') {
    if (!isObj(step.headers)) throw new ScenarioError(`${at}.headers must be an object`);
    plan.headers = Object.fromEntries(Object.entries(step.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  }
  return plan;
}

/** What a request offers to scenario matching. */
export interface MatchInput {
  family: FamilyName;
  path: string;
  model?: string;
  key?: string;
}

interface Scenario {
  id: string;
  match: ScenarioMatch;
  steps: Plan[];
  repeat: boolean;
  used: number;
}

/**
 * Scripted response sequences. A request takes the next step of the first registered scenario that matches it and
 * still has steps left (a `repeat` scenario never runs out); with none, it gets the default answer.
 */
export class ScenarioStore {
  private scenarios: Scenario[] = [];
  private nextId = 1;

  add(input: unknown): string {
    if (!isObj(input)) throw new ScenarioError('a scenario must be an object');
    const match: ScenarioMatch = {};
    if (input.match !== undefined) {
      if (!isObj(input.match)) throw new ScenarioError('match must be an object');
      for (const [k, v] of Object.entries(input.match)) {
        if (k !== 'family' && k !== 'path' && k !== 'model' && k !== 'key') {
          throw new ScenarioError(`match.${k} is not a match field (family, path, model, key)`);
        }
        if (typeof v !== 'string') throw new ScenarioError(`match.${k} must be a string`);
        if (k === 'family' && !FAMILY_NAMES.includes(v as FamilyName)) {
          throw new ScenarioError(`match.family must be one of ${FAMILY_NAMES.join(', ')}`);
        }
        (match as Record<string, string>)[k] = v;
      }
    }
    if (!Array.isArray(input.responses) || input.responses.length === 0) {
      throw new ScenarioError('responses must be a non-empty array');
    }
    const steps = input.responses.map((s, i) => planOf(s, `responses[${i}]`));
    if (input.repeat !== undefined && typeof input.repeat !== 'boolean') {
      throw new ScenarioError('repeat must be a boolean');
    }
    const id = `scn_${this.nextId++}`;
    this.scenarios.push({ id, match, steps, repeat: input.repeat === true, used: 0 });
    return id;
  }

  /** Consumes the next step for this request, if a scenario claims it. */
  take(req: MatchInput): { id: string; plan: Plan } | undefined {
    for (const s of this.scenarios) {
      if (!s.repeat && s.used >= s.steps.length) continue;
      const m = s.match;
      if (m.family !== undefined && m.family !== req.family) continue;
      if (m.model !== undefined && m.model !== req.model) continue;
      if (m.key !== undefined && m.key !== req.key) continue;
      if (m.path !== undefined && !req.path.includes(m.path)) continue;
      const plan = s.steps[s.used % s.steps.length]!;
      s.used += 1;
      return { id: s.id, plan };
    }
    return undefined;
  }

  list(): Array<{ id: string; match: ScenarioMatch; steps: number; used: number; repeat: boolean }> {
    return this.scenarios.map((s) => ({
      id: s.id,
      match: s.match,
      steps: s.steps.length,
      used: s.used,
      repeat: s.repeat,
    }));
  }

  reset(): void {
    this.scenarios = [];
    this.nextId = 1;
  }
}

/**
 * Built-in scenarios chosen by model name, for callers that cannot reach the control plane (a gateway strips
 * unknown headers, but passes the model): `sim-rate-limit`, `sim-overloaded`, `sim-error-<status>`, `sim-slow`
 * (250 ms before headers), `sim-stall`, `sim-drop`, `sim-malformed`, `sim-stream-error`, `sim-empty`. Any other
 * `sim-*` model is answered normally.
 */
const BUILTIN = new Map<string, Plan>([
  ['sim-rate-limit', planOf({ fault: 'rate_limit', hint_ms: 1000 })],
  ['sim-overloaded', planOf({ fault: 'overloaded', hint_ms: 1000 })],
  ['sim-slow', planOf({ fault: 'delay', delay_ms: 250 })],
  ['sim-stall', planOf({ fault: 'stall', after_events: 2 })],
  ['sim-drop', planOf({ fault: 'drop', after_events: 2 })],
  ['sim-malformed', planOf({ fault: 'malformed_chunk', after_events: 1 })],
  ['sim-stream-error', planOf({ fault: 'stream_error', after_events: 2 })],
  ['sim-empty', planOf({ fault: 'empty_200' })],
]);

export function builtinPlan(model: string | undefined): Plan | undefined {
  if (model === undefined || !model.startsWith('sim-')) return undefined;
  const plan = BUILTIN.get(model);
  if (plan !== undefined) return plan;
  if (model.startsWith('sim-error-')) {
    const status = Number(model.slice('sim-error-'.length));
    if (Number.isInteger(status) && status >= 400 && status <= 599) return planOf({ fault: 'error', status });
  }
  return undefined;
}
