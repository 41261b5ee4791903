import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type Family, isReply, type SimRequest } from './family.js';
import { anthropicFamily } from './families/anthropic.js';
import { azureFamily } from './families/azure.js';
import { cohereFamily } from './families/cohere.js';
import { bedrockFamily } from './families/bedrock.js';
import { geminiFamily } from './families/gemini.js';
import { openaiFamily } from './families/openai.js';
import { MORE_PROVIDER_FAMILY_LIST } from './families/more-providers.js';
import { vertexFamily } from './families/vertex.js';
import { elevenlabsFamily } from './families/elevenlabs.js';
import { runwareFamily } from './families/runware.js';
import { sarvamFamily } from './families/sarvam.js';
import { replicateFamily } from './families/replicate.js';
import { runwayFamily } from './families/runway.js';
import { mistralFamily } from './families/mistral.js';
import { multipartBoundary, parseMultipart } from './multipart.js';
import { type Exchange, sendReply, Timers, writeAnswer } from './response-writer.js';
import { FaultMix, type FaultMixInput, type FaultMixView } from './fault-mix.js';
import { builtinPlan, DEFAULT_PLAN, type Plan, ScenarioError, ScenarioStore } from './scenarios.js';
import type { CapturedRequest, FamilyName, ScenarioInput } from './types.js';

export type { CapturedRequest, ResponseStep, ScenarioInput, ScenarioMatch, UsageKnobs } from './types.js';
export { FAULT_KINDS, type FaultKind, type FaultMixInput, type FaultMixView } from './fault-mix.js';

export interface SimulatorOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Captured requests kept (oldest dropped first); 0 captures nothing (benchmarks). Default 10000. */
  maxCaptured?: number;
  /** A seeded random fault mix from the start (as `sim.faultMix(...)`). */
  faultMix?: FaultMixInput;
}

export interface RequestFilter {
  family?: FamilyName;
  /** Substring of the path. */
  path?: string;
}

export interface Simulator {
  /** `http://127.0.0.1:<port>`; a provider's base URL is `${url}/<family>` (OpenAI: `${url}/openai/v1`). */
  url: string;
  port: number;
  close(): Promise<void>;
  /** Forgets scenarios and captured requests. */
  reset(): void;
  /** Registers scenarios (same JSON as `POST /_sim/scenarios`); returns their ids. Throws on a bad scenario. */
  scenario(s: ScenarioInput | ScenarioInput[]): string[];
  /** Captured requests in arrival order (live objects: `status` and `client_aborted` fill in as answers end). */
  requests(filter?: RequestFilter): CapturedRequest[];
  scenarios(): ReturnType<ScenarioStore['list']>;
  /**
   * Sets a seeded random fault mix (replacing any), or removes it with `null`; answers its view. Throws on a bad
   * input. `reset()` leaves the mix in place.
   */
  faultMix(input: FaultMixInput | null): FaultMixView | undefined;
  /** The mix in force with its counters (requests drawn for, faults injected by kind), if any. */
  faultMixView(): FaultMixView | undefined;
}

const FAMILIES = new Map<string, Family>([
  ['openai', openaiFamily],
  ['azure', azureFamily],
  ['anthropic', anthropicFamily],
  ['gemini', geminiFamily],
  ['cohere', cohereFamily],
  ['bedrock', bedrockFamily],
  ...MORE_PROVIDER_FAMILY_LIST.map((f) => [f.name, f] as const),
  ['vertex', vertexFamily],
  ['elevenlabs', elevenlabsFamily],
  ['runware', runwareFamily],
  ['sarvam', sarvamFamily],
  ['replicate', replicateFamily],
  ['runway', runwayFamily],
  ['mistral', mistralFamily],
]);

/** Every family's base path (`/openai`, `/azure`, …), in the order above: what the 404 and the start-up line list. */
export const FAMILY_PATHS: readonly string[] = [...FAMILIES.keys()].map((name) => `/${name}`);

const EMPTY_QUERY = new URLSearchParams();

function parseBody(text: string): { body: unknown; badJson: boolean } {
  if (text === '') return { body: undefined, badJson: false };
  try {
    return { body: JSON.parse(text) as unknown, badJson: false };
  } catch {
    return { body: text, badJson: true };
  }
}

/** A multipart form (uploads) parsed from the bytes, whose text decoding would mangle binary parts; else JSON. */
function parseBodyOf(req: IncomingMessage, raw: Buffer, text: string): { body: unknown; badJson: boolean } {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (boundary === undefined) return parseBody(text);
  const form = parseMultipart(raw, boundary);
  return form ? { body: form, badJson: false } : { body: text, badJson: true };
}

function sendJson(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/**
 * The provider simulator: each wire family under its path prefix, scripted faults from scenarios, and a control
 * plane under `/_sim/` (no auth). See README.md in this folder.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  const maxCaptured = options.maxCaptured ?? 10_000;
  const store = new ScenarioStore();
  const timers = new Timers();
  let captured: CapturedRequest[] = [];
  let seq = 0;
  let mix = options.faultMix ? FaultMix.of(options.faultMix) : undefined;
  const setMix = (input: unknown): FaultMixView | undefined => {
    mix = input === null ? undefined : FaultMix.of(input);
    return mix?.view();
  };

  const capture = (c: CapturedRequest) => {
    if (maxCaptured <= 0) return;
    if (captured.length >= maxCaptured) captured = captured.slice(Math.ceil(maxCaptured / 2));
    captured.push(c);
  };

  const requests = (filter: RequestFilter = {}) =>
    captured.filter(
      (c) =>
        (filter.family === undefined || c.family === filter.family) &&
        (filter.path === undefined || c.path.includes(filter.path)),
    );

  const addScenarios = (input: unknown): string[] =>
    Array.isArray(input) ? input.map((s) => store.add(s)) : [store.add(input)];

  const reset = () => {
    store.reset();
    captured = [];
    seq = 0;
  };

  function control(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, text: string) {
    const route = `${req.method} ${path}`;
    switch (route) {
      case 'POST /_sim/scenarios': {
        const { body, badJson } = parseBody(text);
        if (badJson) return sendJson(res, 400, { error: 'the body is not JSON' });
        try {
          return sendJson(res, 201, { ids: addScenarios(body) });
        } catch (e) {
          if (e instanceof ScenarioError) return sendJson(res, 400, { error: e.message });
          throw e;
        }
      }
      case 'GET /_sim/scenarios':
        return sendJson(res, 200, { scenarios: store.list() });
      case 'DELETE /_sim/scenarios':
        store.reset();
        return sendJson(res, 204);
      case 'GET /_sim/requests':
        return sendJson(res, 200, {
          requests: requests({
            family: (query.get('family') ?? undefined) as FamilyName | undefined,
            path: query.get('path') ?? undefined,
          }),
        });
      case 'DELETE /_sim/requests':
        captured = [];
        return sendJson(res, 204);
      case 'POST /_sim/reset':
        reset();
        return sendJson(res, 204);
      case 'POST /_sim/fault-mix': {
        const { body, badJson } = parseBody(text);
        if (badJson) return sendJson(res, 400, { error: 'the body is not JSON' });
        try {
          return sendJson(res, 201, { fault_mix: setMix(body) });
        } catch (e) {
          if (e instanceof ScenarioError) return sendJson(res, 400, { error: e.message });
          throw e;
        }
      }
      case 'GET /_sim/fault-mix':
        return sendJson(res, 200, { fault_mix: mix?.view() ?? null });
      case 'DELETE /_sim/fault-mix':
        mix = undefined;
        return sendJson(res, 204);
      case 'GET /_sim/health':
        return sendJson(res, 200, { ok: true });
      default:
        return sendJson(res, 404, { error: `no control route ${route}` });
    }
  }

  function answer(
    sim: SimRequest,
    family: Family,
    x: Exchange,
    operation: ReturnType<Family['route']>,
    plan: Plan,
    c: CapturedRequest,
  ) {
    if (x.res.destroyed || isReply(operation)) return;
    for (const [name, value] of Object.entries(plan.headers ?? {})) x.res.setHeader(name, value);
    const o = plan.outcome;
    switch (o.kind) {
      case 'raw':
        return sendReply(x, {
          status: o.status,
          headers: { 'content-length': String(Buffer.byteLength(o.body)), ...o.headers },
          body: o.body,
        });
      case 'error':
        return sendReply(x, family.error(sim, o));
      case 'empty':
        return sendReply(x, {
          status: 200,
          headers: { 'content-type': sim.stream ? 'text/event-stream' : 'application/json', 'content-length': '0' },
          body: '',
        });
      case 'answer':
        if (o.faults.dropAfter === 0) return x.drop();
        if (o.faults.errorAfter !== undefined && !sim.stream) return sendReply(x, family.error(sim, { status: 500 }));
        return writeAnswer(
          x,
          operation({
            ...o.knobs,
            report: (u) => {
              const input = u.input + u.cacheRead + u.cacheWrite;
              const output = u.output + u.reasoning;
              c.usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
            },
          }),
          o.faults,
        );
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse, text: string, raw: Buffer) {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? EMPTY_QUERY : new URLSearchParams(url.slice(q + 1));
    if (path.startsWith('/_sim/')) return control(req, res, path, query, text);

    const slash = path.indexOf('/', 1);
    const family = FAMILIES.get(slash < 0 ? path.slice(1) : path.slice(1, slash));
    const { body, badJson } = parseBodyOf(req, raw, text);
    const c: CapturedRequest = {
      seq: ++seq,
      method: req.method ?? 'GET',
      path,
      query: q < 0 ? {} : Object.fromEntries(query),
      headers: req.headers,
      body,
      family: family?.name,
      stream: false,
      time: performance.timeOrigin + performance.now(),
    };
    capture(c);
    let dropped = false;
    const x: Exchange = {
      res,
      timers,
      setStatus: (status) => (c.status = status),
      drop: () => {
        dropped = true;
        c.status ??= 0;
        res.destroy();
      },
    };
    res.on('close', () => {
      if (!res.writableFinished && !dropped) c.client_aborted = true;
      c.completed = res.writableFinished && !dropped;
    });
    if (family === undefined) {
      c.status = 404;
      return sendJson(res, 404, { error: `unknown family in ${path}: use one of ${FAMILY_PATHS.join(', ')}` });
    }

    const sim: SimRequest = {
      family: family.name,
      method: c.method,
      path,
      sub: slash < 0 ? '' : path.slice(slash),
      query,
      headers: req.headers,
      body,
      rawBody: text,
      badJson,
      stream: false,
    };
    const denied = family.authenticate(sim);
    c.key = sim.key;
    if (denied) return sendReply(x, denied);
    const operation = family.route(sim);
    c.model = sim.model;
    c.stream = sim.stream;
    if (isReply(operation)) return sendReply(x, operation);

    const taken = store.take({ family: family.name, path, model: sim.model, key: sim.key });
    c.scenario = taken?.id;
    const drawn =
      taken === undefined ? mix?.draw({ family: family.name, path, model: sim.model, key: sim.key }) : undefined;
    c.fault = drawn?.kind;
    const plan = taken?.plan ?? drawn?.plan ?? builtinPlan(sim.model) ?? DEFAULT_PLAN;
    if (plan.delayMs > 0) timers.after(plan.delayMs, () => answer(sim, family, x, operation, plan, c));
    else answer(sim, family, x, operation, plan, c);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const text = raw.length === 0 ? '' : raw.toString();
      try {
        handle(req, res, text, raw);
      } catch (e) {
        // A simulator bug must be loud in the test that hit it, not a hung request.
        if (!res.headersSent) sendJson(res, 500, { error: `simulator error: ${(e as Error).stack ?? String(e)}` });
        else res.destroy();
      }
    });
  });
  // Longer than any client's keep-alive, so a pooled connection is never closed under a request being sent.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    async close() {
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    reset,
    scenario: (s) => addScenarios(s),
    requests,
    scenarios: () => store.list(),
    faultMix: (input) => setMix(input),
    faultMixView: () => mix?.view(),
  };
}
