import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

const chat = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'openai/gpt-4o-mini',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content },
  ],
  ...extra,
});

const WEATHER_TOOL = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

/** Each kind of request leaves exactly the rows expected, field by field (issue 10 §1, §4). */
describe(`request log capture (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let vkId: string;
  let keys: Record<string, string>;

  /** The log rows of one request: its primary row and any fallback rows, oldest first. */
  async function rowsOf(requestId: string): Promise<any[]> {
    const primary = await s.admin.get(`/api/logs/${requestId}`);
    expect(primary.status, primary.text).toBe(200);
    const children = await s.admin.get('/api/logs', { query: { parent_request_ids: requestId, order: 'asc' } });
    expect(children.status, children.text).toBe(200);
    expect(children.body.logs.every((r: any) => r.parent_request_id === requestId)).toBe(true);
    return [primary.body, ...children.body.logs];
  }

  beforeAll(async () => {
    s = await startInferenceStack();
    const vks = await s.admin.get('/api/governance/virtual-keys');
    vkId = vks.body.virtual_keys.find((k: any) => k.name === 'inference-tests').id;
    const listed = await s.admin.get('/api/keys');
    keys = Object.fromEntries(listed.body.keys.map((k: any) => [k.name, k.id]));
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('a unary chat: one row with routing, usage, cost, metadata and content', async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('log this please', { temperature: 0.5 }), {
      headers: { 'x-gateway-log-meta-team-name': 'alpha', 'x-gateway-log-meta-ticket': 'T-1' },
    });
    expect(res.status, res.text).toBe(200);
    const id = res.headers.get('x-request-id')!;
    const [row, ...rest] = await rowsOf(id);
    expect(rest).toEqual([]);
    const keyName = res.headers.get('x-gateway-routing-info-key')!;
    expect(row).toMatchObject({
      id,
      parent_request_id: null,
      object: 'chat_completion',
      provider: 'openai',
      model: 'gpt-4o-mini',
      fallback_index: 0,
      number_of_retries: 0,
      selected_key_name: keyName,
      selected_key_id: keys[keyName],
      virtual_key_id: vkId,
      virtual_key_name: 'inference-tests',
      team_id: null,
      customer_id: null,
      routing_rule_id: null,
      status: 'success',
      status_code: 200,
      stream: false,
      time_to_first_token: null,
      prompt_tokens: res.body.usage.prompt_tokens,
      completion_tokens: res.body.usage.completion_tokens,
      total_tokens: res.body.usage.total_tokens,
      stop_reason: 'stop',
      error_type: null,
      error_details: null,
      content_summary: 'log this please',
      metadata: { 'team-name': 'alpha', ticket: 'T-1' },
      input_history: chat('x').messages.map((m) => (m.role === 'user' ? { ...m, content: 'log this please' } : m)),
      output_message: { role: 'assistant', content: 'echo: log this please' },
      params: { temperature: 0.5 },
    });
    expect(row.cost).toBeCloseTo(Number(res.headers.get('x-gateway-cost-usd')), 12);
    expect(row.token_usage).toMatchObject({ prompt_tokens: res.body.usage.prompt_tokens });
    expect(row.token_usage.cost.total_cost).toBeCloseTo(row.cost, 12);
    expect(row.latency).toBeGreaterThan(0);
    expect(Date.now() - Date.parse(row.timestamp)).toBeLessThan(60_000);
    // Never the virtual key or the provider key.
    const text = JSON.stringify(row);
    expect(text).not.toContain(s.vk);
    expect(text).not.toContain('sk-oa-');
  });

  it('the access line names the virtual key, provider, model, tokens and cost, never a key', async () => {
    for (const stream of [false, true]) {
      const res = await s.inference.post(
        '/v1/chat/completions',
        chat('access line', { stream, ...(stream ? { stream_options: { include_usage: true } } : {}) }),
      );
      expect(res.status).toBe(200);
      const id = res.headers.get('x-request-id');
      let line: Record<string, unknown> | undefined;
      for (let i = 0; i < 40 && !line; i++) {
        line = s.gw.logs.records().find((r) => r.req_id === id && typeof r.status === 'number');
        if (!line) await new Promise((r) => setTimeout(r, 25));
      }
      const row = (await s.admin.get(`/api/logs/${id}`)).body;
      expect(line).toMatchObject({
        status: 200,
        virtual_key: 'inference-tests',
        provider: 'openai',
        model: 'gpt-4o-mini',
        total_tokens: row.total_tokens,
      });
      expect(line!.cost_usd).toBeCloseTo(row.cost, 12);
      expect(JSON.stringify(line)).not.toContain(s.vk);
    }
  });

  it('a caller-chosen x-request-id is kept in metadata; the row gets an id of its own', async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('mine'), { headers: { 'x-request-id': 'abc-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('abc-1');
    const list = await s.admin.get('/api/logs', { query: { content_search: 'mine', limit: 5 } });
    const row = list.body.logs.find((r: any) => r.metadata?.['x-request-id'] === 'abc-1');
    expect(row).toBeDefined();
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a stream with a tool call: fragments merged by index, usage from the last chunk, time to first token', async () => {
    const stream = await s.openai.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
      tools: [WEATHER_TOOL as never],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: any;
    const response = stream.controller;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toBeDefined();
    expect(response.signal.aborted).toBe(false);
    const list = await s.admin.get('/api/logs', { query: { content_search: 'call get_weather', limit: 5 } });
    expect(list.body.logs).toHaveLength(1);
    const row = (await s.admin.get(`/api/logs/${list.body.logs[0].id}`)).body;
    expect(row).toMatchObject({
      stream: true,
      status: 'success',
      status_code: 200,
      stop_reason: 'tool_calls',
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.total_tokens,
      tools: [WEATHER_TOOL],
    });
    expect(row.time_to_first_token).toBeGreaterThan(0);
    expect(row.time_to_first_token).toBeLessThanOrEqual(row.latency);
    expect(row.output_message.tool_calls).toHaveLength(1);
    expect(row.output_message.tool_calls[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    expect(row.output_message.tool_calls[0].id).toMatch(/^call_/);
    expect(row.cost).toBeCloseTo(usage.cost?.total_cost ?? row.token_usage.cost.total_cost, 12);
  });

  it('a streamed text answer is logged as its concatenated deltas', async () => {
    const res = await s.inference.post('/v1/chat/completions', chat('stream these five words', { stream: true }));
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id')!;
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({
      stream: true,
      status: 'success',
      stop_reason: 'stop',
      output_message: { role: 'assistant', content: 'echo: stream these five words' },
    });
  });

  it('a fallback chain: a row per model, the fallback pointing at the request', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 503 }], repeat: true });
    const res = await s.inference.post(
      '/v1/chat/completions',
      chat('fall back', { fallbacks: ['anthropic/claude-sonnet-4-5'] }),
    );
    expect(res.status, res.text).toBe(200);
    const id = res.headers.get('x-request-id')!;
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(2);
    const [primary, fallback] = rows;
    expect(primary).toMatchObject({
      id,
      parent_request_id: null,
      fallback_index: 0,
      provider: 'openai',
      model: 'gpt-4o-mini',
      status: 'error',
      status_code: 503,
      number_of_retries: 2,
      error_type: 'provider_overloaded',
      prompt_tokens: null,
      cost: null,
      input_history: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'fall back' },
      ],
      output_message: null,
    });
    expect(primary.error_details).toMatchObject({
      status_code: 503,
      extra_fields: { error_type: 'provider_overloaded' },
    });
    expect(fallback).toMatchObject({
      parent_request_id: id,
      fallback_index: 1,
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      status: 'success',
      status_code: 200,
      selected_key_name: 'an-1',
      selected_key_id: keys['an-1'],
      total_tokens: res.body.usage.total_tokens,
    });
    const detail = (await s.admin.get(`/api/logs/${fallback.id}`)).body;
    // The input is stored once, on the request's row; the fallback's row shows it from there.
    expect(detail.input_history).toEqual(primary.input_history);
    expect(detail.output_message).toMatchObject({ role: 'assistant', content: 'echo: fall back' });
    expect(Date.parse(fallback.timestamp)).toBeGreaterThanOrEqual(Date.parse(primary.timestamp));

    // The attempts of a request are its filter `parent_request_ids` (the dashboard's log drawer); other rows exist.
    expect((await s.admin.get('/api/logs')).body.pagination.total_count).toBeGreaterThan(1);
    const attempts = await s.admin.get('/api/logs', { query: { parent_request_ids: `${id},${fallback.id}` } });
    expect(attempts.body.logs.map((r: any) => r.id)).toEqual([fallback.id]);
    expect(attempts.body.pagination.total_count).toBe(1);
    const bad = await s.admin.get('/api/logs', { query: { parent_request_ids: `${id},not-a-uuid` } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_failed', param: 'parent_request_ids' });
  });

  it('a provider error: one error row with the GatewayError the caller got', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'error', status: 400 }], repeat: true });
    const res = await s.inference.post('/v1/chat/completions', chat('refused'));
    expect(res.status).toBe(400);
    const rows = await rowsOf(res.headers.get('x-request-id')!);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'error',
      status_code: 400,
      provider: 'openai',
      error_type: res.body.extra_fields.error_type,
      error_details: {
        status_code: 400,
        is_gateway_error: false,
        error: { type: res.body.error.type, code: res.body.error.code, message: res.body.error.message },
      },
    });
    // Raw bodies only with logs.capture_raw.
    expect(res.body.extra_fields.raw_request).toBeUndefined();
    expect(rows[0].raw_request).toBeNull();
  });

  it('logs.capture_raw keeps the provider bodies in rows and in error extra fields', async () => {
    const raw = await startInferenceStack({ logs: { capture_raw: true } });
    try {
      const ok = await raw.inference.post('/v1/chat/completions', chat('raw please'));
      expect(ok.status).toBe(200);
      const row = (await raw.admin.get(`/api/logs/${ok.headers.get('x-request-id')}`)).body;
      expect(JSON.parse(row.raw_request)).toMatchObject({
        model: 'gpt-4o-mini',
        messages: chat('raw please').messages,
      });
      expect(JSON.parse(row.raw_response)).toMatchObject({ object: 'chat.completion', id: ok.body.id });
      expect(row.raw_request).not.toContain('sk-oa-');

      raw.sim.scenario({
        match: { family: 'openai' },
        responses: [{ status: 418, body: { error: { message: 'teapot', type: 'weird' } } }],
      });
      const bad = await raw.inference.post('/v1/chat/completions', chat('raw error'));
      expect(bad.status).toBe(418);
      expect(bad.body.extra_fields.raw_request).toMatchObject({ model: 'gpt-4o-mini' });
      expect(bad.body.extra_fields.raw_response).toEqual({ error: { message: 'teapot', type: 'weird' } });
      const errRow = (await raw.admin.get(`/api/logs/${bad.headers.get('x-request-id')}`)).body;
      expect(JSON.parse(errRow.raw_response)).toEqual({ error: { message: 'teapot', type: 'weird' } });
    } finally {
      await raw.close();
    }
  });

  it('a request refused before routing (bad body) is logged with the param', async () => {
    const res = await s.inference.post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: 'nope' });
    expect(res.status).toBe(400);
    const [row] = await rowsOf(res.headers.get('x-request-id')!);
    expect(row).toMatchObject({
      status: 'error',
      status_code: 400,
      provider: null,
      model: 'openai/gpt-4o-mini',
      object: 'chat_completion',
      error_details: { error: { param: res.body.error.param } },
    });
  });

  it('a broken stream writes an error row', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'stream_error', after_events: 2 }] });
    const res = await s.inference.post('/v1/chat/completions', chat('break me', { stream: true }));
    expect(res.status).toBe(200);
    const [row] = await rowsOf(res.headers.get('x-request-id')!);
    expect(row).toMatchObject({ stream: true, status: 'error', provider: 'openai' });
    expect(row.status_code).toBeGreaterThanOrEqual(400);
    expect(row.error_details.extra_fields.error_type).toBe(row.error_type);
    expect(row.error_type).toBeTruthy();
  });

  it('a client that goes away mid-stream leaves a 499 row', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ ok: true, chunk_delay_ms: 300 }] });
    const controller = new AbortController();
    const res = await fetch(`${s.gw.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat('cancel me after the first words', { stream: true })),
      signal: controller.signal,
    });
    const id = res.headers.get('x-request-id')!;
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    let row: any;
    for (let i = 0; i < 50 && !row; i++) {
      const got = await s.admin.get(`/api/logs/${id}`);
      if (got.status === 200) row = got.body;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(row).toMatchObject({ status: 'error', status_code: 499, stream: true, error_type: 'caller_cancelled' });
  });

  it('embeddings are logged as a summary, never the vectors', async () => {
    const res = await s.openai.embeddings.create({ model: 'openai/text-embedding-3-small', input: ['a b', 'c d'] });
    expect(res.data).toHaveLength(2);
    const list = await s.admin.get('/api/logs', { query: { objects: 'embedding', limit: 1 } });
    const row = (await s.admin.get(`/api/logs/${list.body.logs[0].id}`)).body;
    expect(row.output_message).toEqual({
      object: 'embeddings_summary',
      count: 2,
      dimensions: res.data[0]!.embedding.length,
    });
    expect(row.input_history).toEqual(['a b', 'c d']);
  });

  it('logs.capture_content false keeps no content; logs.enabled false keeps no rows', async () => {
    const quiet = await startInferenceStack({ logs: { capture_content: false } });
    try {
      const res = await quiet.inference.post('/v1/chat/completions', chat('secret words'));
      // The first read of a fresh table while the row still waits in the writer's buffer: has_logs agrees with logs.
      const first = await quiet.admin.get('/api/logs');
      expect({ rows: first.body.logs.length, has_logs: first.body.has_logs }).toEqual({ rows: 1, has_logs: true });
      const row = (await quiet.admin.get(`/api/logs/${res.headers.get('x-request-id')}`)).body;
      expect(row).toMatchObject({
        status: 'success',
        content_summary: null,
        input_history: null,
        output_message: null,
      });
      const found = await quiet.admin.get('/api/logs', { query: { content_search: 'secret' } });
      expect(found.body.logs).toEqual([]);
    } finally {
      await quiet.close();
    }
    const off = await startInferenceStack({ logs: { enabled: false } });
    try {
      const res = await off.inference.post('/v1/chat/completions', chat('unlogged'));
      expect(res.status).toBe(200);
      const list = await off.admin.get('/api/logs');
      expect(list.body).toMatchObject({ logs: [], has_logs: false, pagination: { total_count: 0 } });
    } finally {
      await off.close();
    }
  });

  it('a request refused by authentication leaves no row; one refused for its body does (docs/logs.md)', async () => {
    const total = async () =>
      (await s.admin.get('/api/logs', { query: { limit: 1 } })).body.pagination.total_count as number;
    const before = await total();
    const anonymous = await s.gw.http.post('/v1/chat/completions', chat('no key'));
    expect({ status: anonymous.status, code: anonymous.body.error?.code }).toEqual({
      status: 401,
      code: 'missing_credentials',
    });
    const management = await s.gw.http.post('/v1/chat/completions', chat('not an inference key'), {
      headers: { authorization: 'Bearer gwm_not-an-inference-credential' },
    });
    expect({ status: management.status, code: management.body.error?.code }).toEqual({
      status: 401,
      code: 'invalid_credentials',
    });
    expect(await total()).toBe(before);
    const badBody = await s.inference.post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: 'x' });
    expect(badBody.status).toBe(400);
    const row = (await s.admin.get(`/api/logs/${badBody.headers.get('x-request-id')}`)).body;
    expect(row).toMatchObject({ status: 'error', status_code: 400 });
    expect(await total()).toBe(before + 1);
  });

  it('an unknown log id is a 404 GatewayError', async () => {
    const res = await s.admin.get('/api/logs/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('log_not_found');
  });
});
