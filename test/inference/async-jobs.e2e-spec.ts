import Anthropic from '@anthropic-ai/sdk';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpResult } from '../helpers/http.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { QueueService } from '../../src/core/queue/queue.service.js';
import { addCohere } from './cohere-kit.js';
import {
  created,
  expectInferenceError,
  FAST_NETWORK,
  seen,
  startInferenceStack,
  type InferenceStack,
} from './inference-kit.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const AUDIO = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Fields of an answer that differ between two calls of the same request (ids and clocks). */
function stable(body: any): any {
  if (Array.isArray(body)) return body.map(stable);
  if (typeof body !== 'object' || body === null) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (['id', 'created', 'created_at', 'completed_at', 'response_id', 'generation_id'].includes(k)) continue;
    out[k] = stable(v);
  }
  return out;
}

/** The async API (issue 16): submit, poll through each state, the synchronous answer as the result. */
describe(`async inference jobs (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let db: DataSource;

  async function pollUntilDone(type: string, id: string, vk = s.vk): Promise<HttpResult> {
    const client = s.gw.http.withHeaders({ authorization: `Bearer ${vk}` });
    for (let i = 0; i < 400; i++) {
      const res = await client.get(`/v1/async/${type}/${id}`);
      if (res.status !== 202) return res;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`job ${id} did not finish`);
  }

  function form(fields: Record<string, string | Blob>, filename: string): FormData {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === 'string') body.append(name, value);
      else body.append(name, value, filename);
    }
    return body;
  }

  async function postForm(path: string, body: FormData, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${s.gw.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}`, ...headers },
      body,
    });
  }

  beforeAll(async () => {
    s = await startInferenceStack();
    db = s.gw.app.get<DataSource>(getDataSourceToken());
    await addCohere(s);
    await created(
      s.admin.post('/api/providers', {
        provider: 'mistral',
        base_url: `${s.sim.url}/openai/v1`,
        network_config: FAST_NETWORK,
      }),
    );
    await created(s.admin.post('/api/providers/mistral/keys', { name: 'mi-1', value: 'mistral-key-1' }));
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('chat: 202 { id, status, created_at }, 202 while processing, then 200 with the synchronous answer', async () => {
    s.sim.scenario({
      match: { family: 'openai', model: 'gpt-4o-mini' },
      responses: [{ fault: 'delay', delay_ms: 600 }],
    });
    const body = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello async' }] };
    const submitted = await s.inference.post('/v1/async/chat/completions', body);
    expect(submitted.status, submitted.text).toBe(202);
    expect(Object.keys(submitted.body).sort()).toEqual(['created_at', 'id', 'status']);
    expect(submitted.body.id).toMatch(UUID);
    expect(submitted.body.status).toBe('pending');
    expect(new Date(submitted.body.created_at).toISOString()).toBe(submitted.body.created_at);

    // Within the provider's 600 ms: the job is pending or processing, answered 202.
    const early = await s.inference.get(`/v1/async/chat/completions/${submitted.body.id}`);
    expect(early.status).toBe(202);
    expect(['pending', 'processing']).toContain(early.body.status);
    expect(early.body.status_code).toBe(202);
    expect(early.body.result).toBeUndefined();

    const done = await pollUntilDone('chat/completions', submitted.body.id);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ id: submitted.body.id, status: 'completed', status_code: 200 });
    const ttl = new Date(done.body.expires_at).getTime() - new Date(done.body.completed_at).getTime();
    expect(ttl).toBe(3600 * 1000);

    const sync = await s.inference.post('/v1/chat/completions', body);
    expect(sync.status).toBe(200);
    expect(stable(done.body.result)).toEqual(stable(sync.body));
    expect(done.body.result.object).toBe('chat.completion');

    // The provider was called once per request, with the stored key, as the synchronous route calls it.
    const calls = seen(s.sim, { family: 'openai' }).filter((c) => c.path === '/openai/v1/chat/completions');
    expect(calls).toHaveLength(2);
    expect(calls[0].body).toEqual(calls[1].body);

    // One request log row for the job, like any request.
    const row = await db.query(
      `SELECT attempts, dispatched_at, virtual_key_id, request_headers FROM async_jobs WHERE id = $1`,
      [submitted.body.id],
    );
    expect(row[0].attempts).toBe(1);
    expect(row[0].dispatched_at).not.toBeNull();
    expect(row[0].virtual_key_id).toMatch(UUID);
    expect(JSON.stringify(row[0].request_headers)).not.toContain(s.vk);
    expect(row[0].request_headers.authorization).toBeUndefined();
  });

  it('every JSON type: the result equals the synchronous answer', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['completions', { model: 'openai/gpt-3.5-turbo-instruct', prompt: 'say hi' }],
      ['responses', { model: 'openai/gpt-4o', input: 'hello' }],
      ['embeddings', { model: 'openai/text-embedding-3-small', input: ['a', 'b'] }],
      ['rerank', { model: 'cohere/rerank-v3.5', query: 'q', documents: ['x', 'y'] }],
      ['images/generations', { model: 'openai/gpt-image-1', prompt: 'a cat' }],
      [
        'ocr',
        {
          model: 'mistral/mistral-ocr-latest',
          document: { type: 'document_url', document_url: 'https://example.com/a.pdf' },
        },
      ],
    ];
    for (const [type, body] of cases) {
      const submitted = await s.inference.post(`/v1/async/${type}`, body);
      expect(submitted.status, `${type}: ${submitted.text}`).toBe(202);
      const done = await pollUntilDone(type, submitted.body.id);
      expect(done.body.status, `${type}: ${done.text}`).toBe('completed');
      const sync = await s.inference.post(`/v1/${type}`, body);
      expect(sync.status, `${type}: ${sync.text}`).toBe(200);
      expect(stable(done.body.result), type).toEqual(stable(sync.body));
    }
  });

  it('speech: the audio base64 in result.data with its content type', async () => {
    const body = { model: 'openai/gpt-4o-mini-tts', voice: 'alloy', input: 'async audio', response_format: 'wav' };
    const submitted = await s.inference.post('/v1/async/audio/speech', body);
    expect(submitted.status, submitted.text).toBe(202);
    const done = await pollUntilDone('audio/speech', submitted.body.id);
    expect(done.body.status).toBe('completed');
    expect(done.body.result.content_type).toBe('audio/wav');
    const sync = await fetch(`${s.gw.baseUrl}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const bytes = Buffer.from(await sync.arrayBuffer());
    expect(Buffer.from(done.body.result.data, 'base64').equals(bytes)).toBe(true);
  });

  it('multipart types: the upload is stored byte for byte and replayed', async () => {
    const audio = new Blob([AUDIO], { type: 'audio/wav' });
    const transcription = await postForm(
      '/v1/async/audio/transcriptions',
      form({ model: 'openai/whisper-1', file: audio }, 'clip.wav'),
    );
    expect(transcription.status).toBe(202);
    const t = await pollUntilDone('audio/transcriptions', ((await transcription.json()) as { id: string }).id);
    expect(t.body.status, t.text).toBe('completed');
    expect(typeof t.body.result.text).toBe('string');
    const call = seen(s.sim).find((c) => c.path === '/openai/v1/audio/transcriptions');
    expect(call.body.file).toMatchObject({ size: AUDIO.length });

    for (const type of ['images/edits', 'images/variations']) {
      const fields: Record<string, string | Blob> = {
        model: 'openai/gpt-image-1',
        image: new Blob([PNG], { type: 'image/png' }),
      };
      if (type === 'images/edits') fields.prompt = 'add a hat';
      const res = await postForm(`/v1/async/${type}`, form(fields, 'cat.png'));
      expect(res.status, type).toBe(202);
      const done = await pollUntilDone(type, ((await res.json()) as { id: string }).id);
      expect(done.body.status, `${type}: ${done.text}`).toBe('completed');
      expect(Array.isArray(done.body.result.data)).toBe(true);
    }
  });

  it('a failed request: 200 with status failed, the GatewayError and its status code', async () => {
    const submitted = await s.inference.post('/v1/async/chat/completions', {
      model: 'openai/sim-error-400',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(submitted.status).toBe(202);
    const done = await pollUntilDone('chat/completions', submitted.body.id);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('failed');
    expect(done.body.status_code).toBe(400);
    expect(done.body.result).toBeUndefined();
    expect(done.body.error.status_code).toBe(400);
    expect(done.body.error.extra_fields.error_type).toBe('caller_invalid_request');
    expect(typeof done.body.error.error.message).toBe('string');
  });

  it('bad input is refused at submit (400 naming the field) and stores nothing', async () => {
    const before = Number((await db.query('SELECT count(*)::int AS n FROM async_jobs'))[0].n);
    expectInferenceError(
      await s.inference.post('/v1/async/chat/completions', {
        model: 'openai/gpt-4o',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      }),
      400,
      'caller_invalid_request',
      { param: 'stream' },
    );
    expectInferenceError(
      await s.inference.post('/v1/async/chat/completions', { model: 'openai/gpt-4o' }),
      400,
      'caller_invalid_request',
      {
        param: 'messages',
      },
    );
    expectInferenceError(
      await s.inference.post('/v1/async/embeddings', { input: 'x' }),
      400,
      'caller_invalid_request',
      {
        param: 'model',
      },
    );
    for (const ttl of ['59', '604801', 'abc', '-5', '1.5']) {
      const res = await s.gw.http
        .withHeaders({ authorization: `Bearer ${s.vk}`, 'x-gateway-async-job-result-ttl': ttl })
        .post('/v1/async/embeddings', { model: 'openai/text-embedding-3-small', input: 'x' });
      expectInferenceError(res, 400, 'caller_invalid_request', { param: 'x-gateway-async-job-result-ttl' });
    }
    const webhook = await s.gw.http
      .withHeaders({ authorization: `Bearer ${s.vk}`, 'x-gateway-async-webhook': 'nope' })
      .post('/v1/async/embeddings', { model: 'openai/text-embedding-3-small', input: 'x' });
    expectInferenceError(webhook, 400, 'caller_invalid_request', { param: 'x-gateway-async-webhook' });
    const after = Number((await db.query('SELECT count(*)::int AS n FROM async_jobs'))[0].n);
    expect(after).toBe(before);
  });

  it('ownership: another key, another type, no key or an unknown id: 404 / 401', async () => {
    const submitted = await s.inference.post('/v1/async/embeddings', {
      model: 'openai/text-embedding-3-small',
      input: 'x',
    });
    expect(submitted.status).toBe(202);
    const done = await pollUntilDone('embeddings', submitted.body.id);
    expect(done.body.status).toBe('completed');
    const other = await created(s.admin.post('/api/governance/virtual-keys', { name: 'async-other' }));
    const otherClient = s.gw.http.withHeaders({ authorization: `Bearer ${other.virtual_key.value}` });
    const foreign = await otherClient.get(`/v1/async/embeddings/${submitted.body.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('async_job_not_found');
    expect((await s.inference.get(`/v1/async/chat/completions/${submitted.body.id}`)).status).toBe(404);
    expect((await s.inference.get(`/v1/async/embeddings/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await s.inference.get(`/v1/async/embeddings/not-a-uuid`)).status).toBe(404);
    const anonymous = await s.gw.http.get(`/v1/async/embeddings/${submitted.body.id}`);
    expect(anonymous.status).toBe(401);
    expect((await s.gw.http.post('/v1/async/embeddings', { model: 'openai/x', input: 'x' })).status).toBe(401);
  });

  it('TTL: the per-request header sets expires_at; an expired job is 404 and the purge deletes it', async () => {
    const res = await s.gw.http
      .withHeaders({ authorization: `Bearer ${s.vk}`, 'x-gateway-async-job-result-ttl': '120' })
      .post('/v1/async/embeddings', { model: 'openai/text-embedding-3-small', input: 'ttl' });
    expect(res.status).toBe(202);
    const done = await pollUntilDone('embeddings', res.body.id);
    expect(new Date(done.body.expires_at).getTime() - new Date(done.body.completed_at).getTime()).toBe(120_000);
    // Time passes: the row's expiry moves into the past (the purge and the poll compare with the clock).
    await db.query(`UPDATE async_jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [res.body.id]);
    const expired = await s.inference.get(`/v1/async/embeddings/${res.body.id}`);
    expect(expired.status).toBe(404);
    const queue = s.gw.app.get(QueueService);
    const { id } = await queue.enqueue('maintenance.purge-expired', { reason: 'test' });
    const purge = await queue.waitForCompletion(id, 10_000);
    expect(purge.state).toBe('completed');
    expect((purge.result as any).deleted.async_jobs).toBeGreaterThanOrEqual(1);
    expect(await db.query('SELECT id FROM async_jobs WHERE id = $1', [res.body.id])).toEqual([]);
  });

  it('operators list jobs with filters (GET /api/async-jobs), without requests or results', async () => {
    const submitted = await s.inference.post('/v1/async/embeddings', {
      model: 'openai/text-embedding-3-small',
      input: 'list',
    });
    await pollUntilDone('embeddings', submitted.body.id);
    const list = await s.admin.get('/api/async-jobs?type=embeddings&status=completed&limit=5');
    expect(list.status, list.text).toBe(200);
    expect(list.body.pagination).toMatchObject({ limit: 5, offset: 0, sort_by: 'created_at', order: 'desc' });
    expect(list.body.pagination.total_count).toBeGreaterThanOrEqual(1);
    expect(list.body.jobs[0]).toMatchObject({
      id: submitted.body.id,
      type: 'embeddings',
      status: 'completed',
      status_code: 200,
      attempts: 1,
    });
    expect(list.body.jobs[0].result).toBeUndefined();
    expect(list.body.jobs.every((j: any) => j.type === 'embeddings' && j.status === 'completed')).toBe(true);
    const failed = await s.admin.get('/api/async-jobs?status=failed');
    expect(failed.body.jobs.every((j: any) => j.status === 'failed')).toBe(true);
    const bad = await s.admin.get('/api/async-jobs?status=done');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('status');
    const badTime = await s.admin.get('/api/async-jobs?start_time=yesterday');
    expect(badTime.body.error.param).toBe('start_time');
  });

  it('provider-format routes: x-gateway-async submits, x-gateway-async-id polls, the native answer when done', async () => {
    const anthropic = new Anthropic({ baseURL: `${s.gw.baseUrl}/anthropic`, apiKey: s.vk, maxRetries: 0 });
    const params = {
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    const submitted = await anthropic.messages.create(params, { headers: { 'x-gateway-async': 'true' } }).asResponse();
    expect(submitted.status).toBe(202);
    const jobId = submitted.headers.get('x-gateway-async-id')!;
    expect(jobId).toMatch(UUID);
    expect(((await submitted.json()) as { status: string }).status).toBe('pending');

    let message: Anthropic.Message | undefined;
    for (let i = 0; i < 200 && !message; i++) {
      const { data, response } = await anthropic.messages
        .create(params, { headers: { 'x-gateway-async-id': jobId } })
        .withResponse();
      if (response.status === 200) message = data;
      else await new Promise((r) => setTimeout(r, 25));
    }
    expect(message?.type).toBe('message');
    expect(message?.role).toBe('assistant');
    expect(message?.content[0]?.type).toBe('text');

    // Polled on /v1/async under its route: another type, 404.
    expect((await s.inference.get(`/v1/async/chat/completions/${jobId}`)).status).toBe(404);
    // A failed native job answers the native error with its status.
    const failing = await s.gw.http
      .withHeaders({ 'x-api-key': s.vk, 'x-gateway-async': 'true', 'anthropic-version': '2023-06-01' })
      .post('/anthropic/v1/messages', { ...params, model: 'anthropic/sim-error-429' });
    expect(failing.status).toBe(202);
    let polled: HttpResult | undefined;
    for (let i = 0; i < 200; i++) {
      polled = await s.gw.http
        .withHeaders({ 'x-api-key': s.vk, 'x-gateway-async-id': failing.body.id, 'anthropic-version': '2023-06-01' })
        .post('/anthropic/v1/messages', params);
      if (polled.status !== 202) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(polled!.status).toBe(429);
    expect(polled!.body.type).toBe('error');
    expect(polled!.headers.get('x-gateway-async-status')).toBe('failed');
    expect(polled!.headers.get('x-gateway-async-id')).toBe(failing.body.id);
  });

  it('provider-format refusals: a streaming route, a token count, a bad header value', async () => {
    const genai = s.gw.http.withHeaders({ 'x-goog-api-key': s.vk, 'x-gateway-async': 'true' });
    const stream = await genai.post('/genai/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(stream.status, stream.text).toBe(400);
    expect(stream.body.error.status).toBe('INVALID_ARGUMENT');
    expect(stream.body.error.details[1].fieldViolations[0].field).toBe('stream');
    const count = await s.gw.http
      .withHeaders({ 'x-api-key': s.vk, 'x-gateway-async': 'true', 'anthropic-version': '2023-06-01' })
      .post('/anthropic/v1/messages/count_tokens', {
        model: 'anthropic/claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'hi' }],
      });
    expect(count.status, count.text).toBe(400);
    expect(count.body.error.param).toBe('x-gateway-async');
    const yes = await s.gw.http
      .withHeaders({ authorization: `Bearer ${s.vk}`, 'x-gateway-async': 'yes' })
      .post('/openai/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'x' });
    expect(yes.status, yes.text).toBe(400);
    expect(yes.body.error.param).toBe('x-gateway-async');
    // A genai job: the model from the path, the answer in Gemini's shape.
    const submitted = await genai.post('/genai/v1beta/models/gemini-2.0-flash:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(submitted.status, submitted.text).toBe(202);
    let done: HttpResult | undefined;
    for (let i = 0; i < 200; i++) {
      done = await s.gw.http
        .withHeaders({ 'x-goog-api-key': s.vk, 'x-gateway-async-id': submitted.body.id })
        .post('/genai/v1beta/models/gemini-2.0-flash:generateContent', {});
      if (done.status !== 202) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(done!.status, done!.text).toBe(200);
    expect(done!.body.candidates[0].content.parts[0].text).toEqual(expect.any(String));
    const row = await db.query('SELECT path, request_headers FROM async_jobs WHERE id = $1', [submitted.body.id]);
    expect(row[0].path).toBe('/genai/v1beta/models/gemini-2.0-flash:generateContent');
    expect(row[0].request_headers['x-goog-api-key']).toBeUndefined();
  });

  it('/metrics: queue depth, wait and run time of async jobs', async () => {
    const metrics = await s.admin.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/gateway_queue_jobs\{queue="gateway-async",state="waiting"\} \d+/);
    expect(metrics.text).toMatch(/gateway_async_job_wait_seconds_count\{type="chat\/completions"\} [1-9]/);
    expect(metrics.text).toMatch(/gateway_async_job_run_seconds_count\{type="embeddings",status="completed"\} [1-9]/);
    expect(metrics.text).toMatch(/gateway_async_jobs_finished_total\{type="chat\/completions",status="failed"\} [1-9]/);
  });
});
