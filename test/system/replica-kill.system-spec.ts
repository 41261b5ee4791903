import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../helpers/http.js';
import type { CapturedRequest, Simulator } from '../simulator/server.js';
import { IS_LONG } from './profile.js';
import { BUILT, kill9, SCALE_OUT, systemHarness, waitHealthy, wireSimulator, type Cluster } from './harness.js';

/** The load goes on this long after replica A was killed (and stops at the latest after LOAD_HARD_BOUND_MS). */
const LOAD_AFTER_KILL_MS = IS_LONG ? 12_000 : 2_500;
const LOAD_HARD_BOUND_MS = 90_000;
/** Replica A is killed this long after the load started, or later once every async job was accepted. */
const KILL_AFTER_MS = IS_LONG ? 8_000 : 1_500;
const CLIENTS_PER_REPLICA = 10;
const JOBS_PER_REPLICA = IS_LONG ? 60 : 20;
/** Per worker; a killed worker's running jobs come back after `lock_duration`. */
const CONCURRENCY = 2;
/** No request may take longer than this, killed replica included. */
const REQUEST_BOUND_MS = 15_000;
const LOAD_TEXT = 'alpha beta gamma delta epsilon';
const LOAD_MODEL = 'gpt-4o';
const JOB_MODEL = 'gpt-4o-mini';

type Outcome =
  | { kind: 'ok'; requestId: string }
  | { kind: 'http'; status: number; body: string }
  | { kind: 'network'; message: string }
  | { kind: 'incomplete'; content: string };

interface Attempt {
  replica: 'a' | 'b';
  stream: boolean;
  startedAt: number;
  endedAt: number;
  outcome: Outcome;
}

interface Target {
  replica: 'a' | 'b';
  baseUrl: string;
  vk: string;
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `${String(err)}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
}

/** One chat completion, unary or streamed; never throws, never waits past REQUEST_BOUND_MS. */
async function attempt(target: Target, stream: boolean): Promise<Attempt> {
  const replica = target.replica;
  const startedAt = Date.now();
  const done = (outcome: Outcome): Attempt => ({ replica, stream, startedAt, endedAt: Date.now(), outcome });
  try {
    const res = await fetch(`${target.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.vk}` },
      body: JSON.stringify({ model: `openai/${LOAD_MODEL}`, stream, messages: [{ role: 'user', content: 'load' }] }),
      signal: AbortSignal.timeout(REQUEST_BOUND_MS),
    });
    const text = await res.text();
    if (res.status !== 200) return done({ kind: 'http', status: res.status, body: text });
    const requestId = res.headers.get('x-request-id') ?? '';
    if (!stream) {
      const content = (JSON.parse(text) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message
        .content;
      return done(content === LOAD_TEXT ? { kind: 'ok', requestId } : { kind: 'incomplete', content: String(content) });
    }
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6));
    const content = data
      .filter((d) => d !== '[DONE]')
      .map((d) => (JSON.parse(d) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content)
      .join('');
    return done(
      content === LOAD_TEXT && data.at(-1) === '[DONE]' ? { kind: 'ok', requestId } : { kind: 'incomplete', content },
    );
  } catch (err) {
    return done({ kind: 'network', message: causeOf(err) });
  }
}

/** A client: unary and streamed requests in turn until `load.endsAt`; it stops at its first failure (replica A). */
async function client(target: Target, index: number, load: { endsAt: number }): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  for (let i = index; Date.now() < load.endsAt; i++) {
    const result = await attempt(target, i % 2 === 1);
    attempts.push(result);
    if (result.outcome.kind !== 'ok') break;
  }
  return attempts;
}

function markerOf(request: CapturedRequest): string | undefined {
  const content = (request.body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages?.[0]?.content;
  return typeof content === 'string' ? content : undefined;
}

/** Job calls the simulator has received and not answered yet. */
function jobsAtProvider(sim: Simulator): CapturedRequest[] {
  return sim.requests().filter((r) => r.model === JOB_MODEL && r.status === undefined && !r.client_aborted);
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Issue 18 §3, third bullet (scale-out only): two api replicas and two workers on one Postgres and one Redis. Load on
 * both replicas (unary and streamed chat completions, async jobs); replica A is killed with SIGKILL mid-load: each of
 * its clients' last request fails on the client side with a connection error, no later than the bound, while every
 * request on replica B succeeds with its whole answer and is logged. Then worker 1 is killed with SIGKILL while both
 * workers are busy and jobs are queued: every queued job completes on the surviving worker, each job is sent to the
 * provider exactly once, and only the two jobs the dead worker had at the provider end as `async_job_interrupted`.
 */
describe.skipIf(!BUILT || !SCALE_OUT)('two api replicas and two workers, one of each killed (postgres)', () => {
  const sys = systemHarness();
  let sim: Simulator;
  let stack: Cluster;
  let onA: HttpClient;
  let onB: HttpClient;
  let vk: string;

  beforeAll(async () => {
    sim = await sys.simulator({ maxCaptured: 10_000 });
    sim.scenario([
      {
        match: { model: LOAD_MODEL },
        responses: [{ ok: true, text: LOAD_TEXT, delay_ms: 150, chunk_delay_ms: 80 }],
        repeat: true,
      },
      { match: { model: JOB_MODEL }, responses: [{ fault: 'delay', delay_ms: 800 }], repeat: true },
    ]);
    stack = await sys.cluster({
      api: 2,
      workers: 2,
      config: { async_jobs: { concurrency: CONCURRENCY, lock_duration: '2s' } },
    });
    vk = await wireSimulator(stack.admin, sim);
    onA = stack.api[0]!.http.withHeaders({ authorization: `Bearer ${vk}` });
    onB = stack.api[1]!.http.withHeaders({ authorization: `Bearer ${vk}` });
  });

  it('kill -9 of an api replica mid-load, then of a worker with jobs queued', async () => {
    const [a, b] = stack.api as [(typeof stack.api)[0], (typeof stack.api)[0]];
    const loadStarted = Date.now();
    // Until the kill the load has only the hard bound; then it goes on for LOAD_AFTER_KILL_MS.
    const load = { endsAt: loadStarted + LOAD_HARD_BOUND_MS };
    const clients = [
      ...Array.from({ length: CLIENTS_PER_REPLICA }, (_, i) =>
        client({ replica: 'a', baseUrl: onA.baseUrl, vk }, i, load),
      ),
      ...Array.from({ length: CLIENTS_PER_REPLICA }, (_, i) =>
        client({ replica: 'b', baseUrl: onB.baseUrl, vk }, i, load),
      ),
    ];

    // Async jobs on both replicas, all accepted before the kill.
    const submit = async (http: HttpClient, marker: string) => {
      const res = await http.post('/v1/async/chat/completions', {
        model: `openai/${JOB_MODEL}`,
        messages: [{ role: 'user', content: marker }],
      });
      expect(res.status, res.text).toBe(202);
      return { marker, id: res.body.id as string };
    };
    const jobs = await Promise.all([
      ...Array.from({ length: JOBS_PER_REPLICA }, (_, i) => submit(onA, `job on a ${i}`)),
      ...Array.from({ length: JOBS_PER_REPLICA }, (_, i) => submit(onB, `job on b ${i}`)),
    ]);

    await new Promise((r) => setTimeout(r, Math.max(0, loadStarted + KILL_AFTER_MS - Date.now())));
    const killedAt = Date.now();
    load.endsAt = Math.min(load.endsAt, killedAt + LOAD_AFTER_KILL_MS);
    expect(await kill9(a)).toEqual({ code: null, signal: 'SIGKILL' });
    const attempts = (await Promise.all(clients)).flat();

    // Replica A: requests before the kill succeeded; each client's last one failed as a connection error (in flight
    // at the kill, or refused after it), within the bound; none was answered with an HTTP error.
    const onReplicaA = attempts.filter((t) => t.replica === 'a');
    const failedOnA = onReplicaA.filter((t) => t.outcome.kind !== 'ok');
    expect(failedOnA.length).toBe(CLIENTS_PER_REPLICA);
    for (const t of failedOnA) {
      expect(t.outcome.kind, JSON.stringify(t.outcome)).toBe('network');
      expect(t.endedAt).toBeGreaterThanOrEqual(killedAt);
      expect(t.endedAt - Math.max(t.startedAt, killedAt)).toBeLessThan(REQUEST_BOUND_MS);
    }
    const inFlightAtKill = failedOnA.filter((t) => t.startedAt < killedAt);
    expect(inFlightAtKill.length).toBeGreaterThan(0);
    // Nothing sent to A after the kill was answered.
    for (const t of onReplicaA.filter((t) => t.outcome.kind === 'ok')) expect(t.startedAt).toBeLessThan(killedAt);

    // Replica B: every request answered completely, before and after the kill.
    const onReplicaB = attempts.filter((t) => t.replica === 'b');
    expect(onReplicaB.filter((t) => t.outcome.kind !== 'ok')).toEqual([]);
    expect(onReplicaB.filter((t) => t.startedAt > killedAt).length).toBeGreaterThan(0);
    expect(onReplicaB.filter((t) => t.stream).length).toBeGreaterThan(0);
    await waitHealthy(b);

    // B's request log rows: one success row per answered request (flushed by B's writer within the bound).
    const bIds = new Set(onReplicaB.map((t) => (t.outcome as { requestId: string }).requestId));
    await until(
      'a success log row for every request answered by replica B',
      async () => {
        const logs = await b.admin.get('/api/logs', { query: { limit: 1000, status: 'success' } });
        expect(logs.status, logs.text).toBe(200);
        const ids = new Set((logs.body.logs as Array<{ id: string }>).map((r) => r.id));
        return [...bIds].every((id) => ids.has(id)) ? true : undefined;
      },
      15_000,
    );

    // Worker 1 dies while both workers have every slot at the provider and jobs are still queued.
    const [doomed, survivor] = stack.workers as [(typeof stack.workers)[0], (typeof stack.workers)[0]];
    const atKill = await until(
      'both workers busy at the provider',
      () => {
        const flying = jobsAtProvider(sim);
        return flying.length === 2 * CONCURRENCY ? flying.map(markerOf) : undefined;
      },
      60_000,
    );
    const sentBeforeWorkerKill = new Set(
      sim
        .requests()
        .filter((r) => r.model === JOB_MODEL)
        .map(markerOf),
    );
    expect(await kill9(doomed)).toEqual({ code: null, signal: 'SIGKILL' });
    const queuedAtKill = jobs.filter((j) => !sentBeforeWorkerKill.has(j.marker));
    expect(queuedAtKill.length).toBeGreaterThan(0);

    // Every job reaches a final state (polled on the surviving replica).
    const final = new Map<string, any>();
    await until(
      'every job final',
      async () => {
        for (const job of jobs.filter((j) => !final.has(j.id))) {
          const res = await onB.get(`/v1/async/chat/completions/${job.id}`);
          if (res.status === 200) final.set(job.id, res.body);
          else expect(res.status, res.text).toBe(202);
        }
        return final.size === jobs.length ? true : undefined;
      },
      90_000,
    );

    const calls = new Map<string, number>();
    for (const r of sim.requests().filter((r) => r.model === JOB_MODEL))
      calls.set(markerOf(r)!, (calls.get(markerOf(r)!) ?? 0) + 1);
    const interrupted: string[] = [];
    for (const job of jobs) {
      const body = final.get(job.id);
      expect(calls.get(job.marker), job.marker).toBe(1);
      if (body.status === 'failed') {
        expect(body).toMatchObject({ status_code: 500, error: { is_gateway_error: true } });
        expect(body.error.extra_fields.error_type).toBe('gateway_dropped');
        expect(body.error.error).toMatchObject({ type: 'internal_error', code: 'async_job_interrupted' });
        interrupted.push(job.marker);
      } else {
        expect(body).toMatchObject({ status: 'completed', status_code: 200 });
        expect(body.result.choices[0].message.content).toBe(`echo: ${job.marker}`);
      }
    }
    // Exactly the dead worker's two jobs at the provider are interrupted (not sent twice); every queued job completed.
    expect(interrupted).toHaveLength(CONCURRENCY);
    for (const marker of interrupted) expect(atKill).toContain(marker);
    for (const job of queuedAtKill) expect(final.get(job.id).status, job.marker).toBe('completed');
    expect(survivor.gw.child.exitCode).toBeNull();
    expect(b.gw.child.exitCode).toBeNull();

    const streamsOnB = onReplicaB.filter((t) => t.stream).length;
    const startups = [...stack.api, ...stack.workers].map((n) => n.startupMs).join(', ');
    console.log(
      `replica kill: processes started in ${startups} ms; A answered ${onReplicaA.length - failedOnA.length} before the kill, ${failedOnA.length} failed ` +
        `(${inFlightAtKill.length} in flight at the kill: ${[...new Set(inFlightAtKill.map((t) => (t.outcome as { message: string }).message))].join('; ')}); ` +
        `B answered ${onReplicaB.length} (${streamsOnB} streamed), all logged; jobs: ${jobs.length}, ` +
        `${queuedAtKill.length} queued at the worker kill, ${interrupted.length} interrupted, ` +
        `${jobs.length - interrupted.length} completed`,
    );
  });
});
