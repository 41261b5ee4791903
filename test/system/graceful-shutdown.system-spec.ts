import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import type { Simulator } from '../simulator/server.js';
import { BUILT, exited, restart, signal, systemHarness, wireSimulator, type Cluster } from './harness.js';

/** The figure, in both profiles. */
const STREAMS = 200;
/** 16 words, one SSE event each 300 ms: a stream lasts about 6 s, so all 200 are mid-stream at the signal. */
const WORDS = Array.from({ length: 16 }, (_, i) => `w${i}`);
const TEXT = WORDS.join(' ');
const CHUNK_DELAY_MS = 300;
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
    model: 'openai/gpt-4o-mini',
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
    );
    req.on('error', (err) => end(String(err)));
    req.end(body);
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
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => ok({ error: err.code ?? String(err) }));
    req.end(body);
  });
}

/**
 * Issue 18 §2, graceful shutdown under load: one gateway process (`--role all`, as a user runs it) with 200 streamed
 * chat completions mid-stream gets SIGTERM. New requests are refused the way src/core/http/drain-gate.ts does it (a
 * 503 `service_unavailable` GatewayError with `Connection: close` while draining, connection refused once the process
 * is gone), every open stream ends with its whole content and `data: [DONE]` within the drain timeout, the process
 * exits 0, and after a restart on the same app dir / database the request logs hold one success row per stream.
 */
describe.skipIf(!BUILT)(`graceful shutdown with ${STREAMS} open streams (${RUN_MODE})`, () => {
  const sys = systemHarness();
  let sim: Simulator;
  let stack: Cluster;
  let vk: string;

  beforeAll(async () => {
    sim = await sys.simulator({ maxCaptured: 1000 });
    sim.scenario({
      match: { path: '/chat/completions' },
      responses: [{ ok: true, text: TEXT, chunk_delay_ms: CHUNK_DELAY_MS }],
      repeat: true,
    });
    stack = await sys.cluster({ api: 1 });
    vk = await wireSimulator(stack.admin, sim);
  });

  it('SIGTERM: new requests refused, every open stream completes, log rows flushed, exit 0', async () => {
    const node = stack.api[0]!;
    const startupMs = node.startupMs;
    const port = node.port!;
    const openedFrom = Date.now();
    const streams = Array.from({ length: STREAMS }, (_, i) => openStream(port, vk, `shutdown-${i}`));
    // Bounded: every stream either relays its first word or ends (an error ends the wait too).
    await Promise.race([
      Promise.all(streams.map((s) => s.firstChunk)),
      new Promise((_, fail) => setTimeout(() => fail(new Error('streams not open after 60 s')), 60_000)),
    ]);
    expect(streams.filter((s) => s.error || s.endedAt !== undefined)).toEqual([]);
    expect(streams.every((s) => s.status === 200)).toBe(true);
    expect(sim.requests({ path: '/chat/completions' })).toHaveLength(STREAMS);

    const signalledAt = Date.now();
    const openMs = signalledAt - openedFrom;
    signal(node, 'SIGTERM');
    const draining = JSON.parse(await node.gw.waitForLine(/shutting down/)) as Record<string, unknown>;
    expect(draining.in_flight_requests).toBe(STREAMS);
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
    expect(sim.requests({ path: '/chat/completions' })).toHaveLength(STREAMS);

    // Gone: the port refuses connections now.
    expect((await freshRequest(port, vk)).error).toBe('ECONNREFUSED');

    // Restarted on the same app dir (embedded) or database (scale-out): one success row per stream, nothing else.
    await restart(node);
    const logs = await node.admin.get('/api/logs', { query: { limit: 1000 } });
    expect(logs.status, logs.text).toBe(200);
    expect(logs.body.pagination.total_count).toBe(STREAMS);
    const rows = logs.body.logs as Array<{ id: string; status: string; stream: boolean; completion_tokens: number }>;
    expect(rows.map((r) => r.id).sort()).toEqual(streams.map((s) => s.requestId).sort());
    expect(new Set(rows.map((r) => r.id)).size).toBe(STREAMS);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'success', stream: true, completion_tokens: WORDS.length });
    }
    console.log(
      `graceful shutdown (${RUN_MODE}): gateway started in ${startupMs} ms; ${STREAMS} streams open in ${openMs} ms; ` +
        `drained and exited 0 in ${drainMs} ms after SIGTERM; restarted in ${node.startupMs} ms, ${rows.length} log rows`,
    );
  });
});
