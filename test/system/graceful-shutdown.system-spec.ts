import { request as httpRequest, type IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import type { HttpClient } from '../helpers/http.js';
import type { CapturedRequest, Simulator } from '../simulator/server.js';
import { BUILT, exited, restart, signal, systemHarness, wireSimulator, type Cluster } from './harness.js';

/** The figure, in both profiles. */
const STREAMS = 200;
/** 16 words, one SSE event each 300 ms: a stream lasts about 6 s, so all 200 are mid-stream at the signal. */
const WORDS = Array.from({ length: 16 }, (_, i) => `w${i}`);
const TEXT = WORDS.join(' ');
const CHUNK_DELAY_MS = 300;
/** Async jobs submitted before the streams: JOB_SLOTS of them at the provider (4 s each) at the signal. */
const JOBS = 8;
const JOB_SLOTS = 4;
const JOB_DELAY_MS = 4_000;
const STREAM_MODEL = 'gpt-4o-mini';
const JOB_MODEL = 'gpt-4o';
/** src/core/shutdown.ts: past this the process exits 1. */
const DRAIN_TIMEOUT_MS = 25_000;

interface StreamResult {
  /** The gateway's `x-request-id` of the answer: the id of its log row. */
  requestId: string;
  status: number;
  events: string[];
  content: string;
  done: boolean;
  error?: string;
  /** First content chunk seen (the stream is open at the provider and relayed). */
  firstChunk: Promise<void>;
  finished: Promise<void>;
  endedAt?: number;
}

/** A streamed chat completion over its own connection (no keep-alive pool), read event by event. */
function openStream(port: number, vk: string, marker: string): StreamResult {
  const body = JSON.stringify({
    model: `openai/${STREAM_MODEL}`,
    stream: true,
    messages: [{ role: 'user', content: `shutdown stream ${marker}` }],
  });
  let onFirst!: () => void;
  const result: StreamResult = {
    requestId: '',
    status: 0,
    events: [],
    content: '',
    done: false,
    firstChunk: new Promise<void>((ok) => (onFirst = ok)),
    finished: Promise.resolve(),
  };
  result.finished = new Promise<void>((ok) => {
    const end = (error?: string) => {
      if (error) result.error = error;
      result.endedAt = Date.now();
      onFirst();
      ok();
    };
    postChat(
      port,
      vk,
      body,
      (res) => {
        result.status = res.statusCode ?? 0;
        result.requestId = String(res.headers['x-request-id']);
        let buffered = '';
        res.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          const frames = buffered.split('\n\n');
          buffered = frames.pop() ?? '';
          for (const frame of frames) {
            const data = frame
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (!data) continue;
            result.events.push(data);
            if (data === '[DONE]') {
              result.done = true;
              continue;
            }
            const delta = (JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]
              ?.delta?.content;
            if (delta) {
              result.content += delta;
              onFirst();
            }
          }
        });
        res.on('end', () => end());
        res.on('error', (err) => end(String(err)));
        res.on('aborted', () => end('aborted'));
      },
      (err) => end(String(err)),
    );
  });
  return result;
}

/** A request on a fresh TCP connection: `{ status, headers, body }`, or `{ error }` when the connection failed. */
function freshRequest(
  port: number,
  vk: string,
): Promise<{ status?: number; headers?: Record<string, unknown>; body?: any; error?: string }> {
  const body = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'too late' }] });
  return new Promise((ok) => {
    postChat(
      port,
      vk,
      body,
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: JSON.parse(text) }));
      },
      (err) => ok({ error: err.code ?? String(err) }),
    );
  });
}

/** POST /v1/chat/completions with the virtual key on a connection of its own (no agent), the body sent at once. */
function postChat(
  port: number,
  vk: string,
  body: string,
  onResponse: (res: IncomingMessage) => void,
  onError: (err: NodeJS.ErrnoException) => void,
): void {
  const req = httpRequest(
    {
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/chat/completions',
      agent: false,
      headers: {
        authorization: `Bearer ${vk}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    },
    onResponse,
  );
  req.on('error', onError);
  req.end(body);
}

interface LogRow {
  id: string;
  status: string;
  stream: boolean;
  model: string;
  completion_tokens: number;
}

/** GET /api/logs until it holds `count` rows (the writer flushes in batches; bounded to 15 s); more is a failure. */
async function logRows(admin: HttpClient, count: number): Promise<LogRow[]> {
  for (let round = 0; ; round++) {
    const logs = await admin.get('/api/logs', { query: { limit: 1000 } });
    expect(logs.status, logs.text).toBe(200);
    const total = logs.body.pagination.total_count as number;
    expect(total).toBeLessThanOrEqual(count);
    if (total === count) return logs.body.logs as LogRow[];
    if (round > 75) throw new Error(`${total} log rows after 15 s, expected ${count}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Issue 18 §2, graceful shutdown under load: one gateway process (`--role all`, as a user runs it) with 200 streamed
 * chat completions mid-stream and async jobs running (every worker slot at the provider, more queued) gets SIGTERM.
 * New requests are refused the way src/core/http/drain-gate.ts does it (a 503 `service_unavailable` GatewayError with
 * `Connection: close` while draining, connection refused once the process is gone); every open stream ends with its
 * whole content and `data: [DONE]`, and every running job gets its provider answer, within the drain timeout; the
 * process exits 0. After a restart on the same app dir / database the queued jobs run, every job completed and was
 * sent once, and the request logs hold exactly one success row per stream and per job.
 */
describe.skipIf(!BUILT)(`graceful shutdown with ${STREAMS} open streams (${RUN_MODE})`, () => {
  const sys = systemHarness();
  let sim: Simulator;
  let stack: Cluster;
  let vk: string;

  beforeAll(async () => {
    sim = await sys.simulator({ maxCaptured: 1000 });
    sim.scenario([
      {
        match: { model: STREAM_MODEL },
        responses: [{ ok: true, text: TEXT, chunk_delay_ms: CHUNK_DELAY_MS }],
        repeat: true,
      },
      { match: { model: JOB_MODEL }, responses: [{ fault: 'delay', delay_ms: JOB_DELAY_MS }], repeat: true },
    ]);
    stack = await sys.cluster({ api: 1, config: { async_jobs: { concurrency: JOB_SLOTS } } });
    vk = await wireSimulator(stack.admin, sim);
  });

  const calls = (model: string) => sim.requests({ path: '/chat/completions' }).filter((r) => r.model === model);
  const markerOf = (r: CapturedRequest) => (r.body as { messages: Array<{ content: string }> }).messages[0]!.content;

  it('SIGTERM: new requests refused, every open stream and running job completes, log rows flushed, exit 0', async () => {
    const node = stack.api[0]!;
    const startupMs = node.startupMs;
    const port = node.port!;
    const inference = node.http.withHeaders({ authorization: `Bearer ${vk}` });

    // Async jobs: every slot busy at the provider, the rest queued behind them.
    const jobs: Array<{ id: string; marker: string }> = [];
    for (let i = 0; i < JOBS; i++) {
      const marker = `shutdown job ${i}`;
      const res = await inference.post('/v1/async/chat/completions', {
        model: `openai/${JOB_MODEL}`,
        messages: [{ role: 'user', content: marker }],
      });
      expect(res.status, res.text).toBe(202);
      jobs.push({ id: res.body.id as string, marker });
    }
    for (let i = 0; calls(JOB_MODEL).length < JOB_SLOTS; i++) {
      if (i > 600) throw new Error('async jobs not at the provider after 30 s');
      await new Promise((r) => setTimeout(r, 50));
    }

    const openedFrom = Date.now();
    const streams = Array.from({ length: STREAMS }, (_, i) => openStream(port, vk, `shutdown-${i}`));
    // Bounded: every stream either relays its first word or ends (an error ends the wait too).
    await Promise.race([
      Promise.all(streams.map((s) => s.firstChunk)),
      new Promise((_, fail) => setTimeout(() => fail(new Error('streams not open after 60 s')), 60_000)),
    ]);
    expect(streams.filter((s) => s.error || s.endedAt !== undefined)).toEqual([]);
    expect(streams.every((s) => s.status === 200)).toBe(true);
    expect(calls(STREAM_MODEL)).toHaveLength(STREAMS);

    const signalledAt = Date.now();
    const openMs = signalledAt - openedFrom;
    signal(node, 'SIGTERM');
    const draining = JSON.parse(await node.gw.waitForLine(/shutting down/)) as Record<string, unknown>;
    // The streams, and the jobs running at the provider (a job replays its request through the HTTP stack).
    expect(draining.in_flight_requests).toBeGreaterThanOrEqual(STREAMS);
    expect(draining.in_flight_requests).toBeLessThanOrEqual(STREAMS + JOB_SLOTS);
    // Still mid-stream when the drain started: none had its terminator yet.
    expect(streams.filter((s) => s.done).length).toBeLessThan(STREAMS);

    // A new connection during the drain: the gate answers 503 and closes the connection; the provider never sees it.
    const refused = await freshRequest(port, vk);
    expect(refused.status).toBe(503);
    expect(refused.headers?.connection).toBe('close');
    expect(refused.headers?.['retry-after']).toBe('1');
    expect(refused.body).toMatchObject({
      is_gateway_error: true,
      status_code: 503,
      type: 'service_unavailable',
      error: { type: 'service_unavailable', code: 'service_unavailable' },
    });
    expect(streams.filter((s) => s.endedAt !== undefined).length).toBeLessThan(STREAMS);

    const exit = await exited(node, DRAIN_TIMEOUT_MS + 10_000);
    const drainMs = Date.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(node.gw.stdout.some((l) => l.includes('shutdown complete'))).toBe(true);
    expect(node.gw.stdout.some((l) => l.includes('drain timed out'))).toBe(false);
    expect(drainMs).toBeLessThan(DRAIN_TIMEOUT_MS);

    // Every stream finished completely: whole content, finish chunk, [DONE] last, no error.
    await Promise.all(streams.map((s) => s.finished));
    for (const s of streams) {
      expect(s.error, s.requestId).toBeUndefined();
      expect(s.content, s.requestId).toBe(TEXT);
      expect(s.done, s.requestId).toBe(true);
      expect(s.events.at(-1), s.requestId).toBe('[DONE]');
    }
    expect(calls(STREAM_MODEL)).toHaveLength(STREAMS);
    // Every job at the provider was answered before the exit (the drain waited for it); none was cut off.
    const jobsSentBeforeExit = calls(JOB_MODEL);
    expect(jobsSentBeforeExit.length).toBeGreaterThanOrEqual(JOB_SLOTS);
    expect(jobsSentBeforeExit.filter((r) => r.status !== 200 || r.client_aborted)).toEqual([]);

    // Gone: the port refuses connections now.
    expect((await freshRequest(port, vk)).error).toBe('ECONNREFUSED');

    // Restarted on the same app dir (embedded) or database (scale-out): the queued jobs run now; every job completed,
    // each sent to the provider once (none interrupted: a clean shutdown sends nothing twice and loses nothing).
    await restart(node);
    const restarted = node.http.withHeaders({ authorization: `Bearer ${vk}` });
    const final = new Map<string, any>();
    for (let round = 0; final.size < JOBS; round++) {
      if (round > 300) throw new Error(`${JOBS - final.size} jobs not final 60 s after the restart`);
      for (const job of jobs.filter((j) => !final.has(j.id))) {
        const res = await restarted.get(`/v1/async/chat/completions/${job.id}`);
        if (res.status === 200) final.set(job.id, res.body);
        else expect(res.status, res.text).toBe(202);
      }
      if (final.size < JOBS) await new Promise((r) => setTimeout(r, 200));
    }
    for (const job of jobs) {
      expect(final.get(job.id), job.marker).toMatchObject({ status: 'completed', status_code: 200 });
      expect(final.get(job.id).result.choices[0].message.content).toBe(`echo: ${job.marker}`);
      expect(
        calls(JOB_MODEL).filter((r) => markerOf(r) === job.marker),
        job.marker,
      ).toHaveLength(1);
    }

    // One success row per stream and per job, nothing else (the refused request left none).
    const rows = await logRows(node.admin, STREAMS + JOBS);
    const streamRows = rows.filter((r) => r.stream);
    expect(streamRows.map((r) => r.id).sort()).toEqual(streams.map((s) => s.requestId).sort());
    expect(new Set(rows.map((r) => r.id)).size).toBe(STREAMS + JOBS);
    for (const row of streamRows) {
      expect(row).toMatchObject({ status: 'success', stream: true, completion_tokens: WORDS.length });
    }
    const jobRows = rows.filter((r) => !r.stream);
    expect(jobRows).toHaveLength(JOBS);
    for (const row of jobRows) expect(row).toMatchObject({ status: 'success', model: JOB_MODEL });
    console.log(
      `graceful shutdown (${RUN_MODE}): gateway started in ${startupMs} ms; ${STREAMS} streams open in ${openMs} ms; ` +
        `drained and exited 0 in ${drainMs} ms after SIGTERM (${String(draining.in_flight_requests)} in flight, ` +
        `${jobsSentBeforeExit.length} of ${JOBS} jobs sent before the exit); restarted in ${node.startupMs} ms, ` +
        `${rows.length} log rows`,
    );
  });
});
