import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock/clock.js';
import type { HttpResult } from '../helpers/http.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { created, sseMessages, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

const POLICIES = '/api/circuit-breaker/policies';
const STATE = '/api/circuit-breaker/state';
const PRIMARY = 'openai/gpt-4o-mini';
const NUL = '\x00';

const chat = (model = PRIMARY, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'trip me' }],
  max_tokens: 8,
  ...extra,
});

/**
 * Issue 12 §2–§3: circuit breaker policies acting on real /v1 requests. The provider simulator sends the signal
 * headers; its captured requests prove the primary is not called while a circuit is open. Time moves on a ManualClock.
 */
describe(`circuit breakers on the request path (${RUN_MODE})`, () => {
  let s: InferenceStack;
  const clock = new ManualClock();
  let keys: Record<string, string>;

  const openaiCalls = () => s.sim.requests({ family: 'openai' }).length;
  const anthropicCalls = () => s.sim.requests({ family: 'anthropic' }).length;
  const servedBy = (res: HttpResult) => res.headers.get('x-gateway-routing-info-provider');
  const signalOnce = (headers: Record<string, string>, step: Record<string, unknown> = { ok: true }) =>
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ ...step, headers } as never] });

  async function policy(body: Record<string, unknown>): Promise<any> {
    return created(
      s.admin.post(POLICIES, {
        name: 'mini-overload',
        primary_provider: 'openai',
        primary_model: 'gpt-4o-mini',
        fallback_provider: 'anthropic',
        fallback_model: 'claude-3-5-haiku-latest',
        condition: {
          operator: 'OR',
          signals: [{ source: 'response_header', header_name: 'x-overloaded', header_value: 'true' }],
        },
        ...body,
      }),
    );
  }
  async function circuits(): Promise<Record<string, any>> {
    const res = await s.admin.get(STATE);
    expect(res.status, res.text).toBe(200);
    return res.body.circuits;
  }
  const send = (model = PRIMARY, extra: Record<string, unknown> = {}) =>
    s.inference.post('/v1/chat/completions', chat(model, extra));

  beforeAll(async () => {
    s = await startInferenceStack({ edition: 'enterprise' }, { clock });
    const listed = await s.admin.get('/api/keys');
    keys = Object.fromEntries(listed.body.keys.map((k: any) => [k.name, k.id]));
  });
  afterAll(() => s?.close());
  beforeEach(async () => {
    s.sim.reset();
    for (const p of (await s.admin.get(POLICIES)).body.policies ?? []) {
      expect((await s.admin.delete(`${POLICIES}/${p.name}`)).status).toBe(200);
    }
    expect(await circuits()).toEqual({});
  });

  it('a signal on an answer opens the circuit; while open the primary gets nothing and the fallback serves', async () => {
    await policy({});
    signalOnce({ 'x-overloaded': 'TRUE' });
    const tripping = await send();
    expect(tripping.status, tripping.text).toBe(200);
    expect(servedBy(tripping)).toBe('openai');
    expect(openaiCalls()).toBe(1);

    const state = await circuits();
    expect(Object.keys(state)).toEqual(['mini-overload']);
    const circuit = state['mini-overload'];
    expect(circuit).toMatchObject({ status: 'open', cooldown: 30_000_000_000 });
    expect(circuit.signal).toEqual({ header_name: 'x-overloaded', header_value: 'TRUE' });
    expect(Date.parse(circuit.expires_at) - Date.parse(circuit.opened_at)).toBe(30_000);
    expect(Date.parse(circuit.opened_at)).toBe(clock.now());

    for (let i = 0; i < 3; i++) {
      const res = await send();
      expect(res.status, res.text).toBe(200);
      expect(servedBy(res)).toBe('anthropic');
      expect(res.headers.get('x-gateway-routing-info-model')).toBe('claude-3-5-haiku-latest');
      expect(res.headers.get('x-gateway-routing-info-is-fallback')).toBe('true');
      expect(res.headers.get('x-gateway-routing-info-primary-provider')).toBe('openai');
      expect(res.headers.get('x-gateway-routing-info-primary-model')).toBe('gpt-4o-mini');
    }
    expect(openaiCalls()).toBe(1);
    expect(anthropicCalls()).toBe(3);

    // Logged as a fallback: the skipped primary's row carries circuit_open, the fallback's row is its child.
    const last = await send();
    const id = last.headers.get('x-request-id')!;
    const primaryRow = await s.admin.get(`/api/logs/${id}`);
    expect(primaryRow.status, primaryRow.text).toBe(200);
    expect(primaryRow.body).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      status: 'error',
      status_code: 503,
    });
    expect(primaryRow.body.error_details.error.code).toBe('circuit_open');
    expect(primaryRow.body.error_details.extra_fields.error_type).toBe('circuit_open');
    expect(primaryRow.body.error_details.extra_fields.circuit_breaker_policy).toBe('mini-overload');
    const all = await s.admin.get('/api/logs', { query: { limit: 50, order: 'desc' } });
    const child = all.body.logs.find((r: any) => r.parent_request_id === id);
    expect(child).toMatchObject({ provider: 'anthropic', status: 'success', fallback_index: 1 });

    const metrics = (await s.admin.get('/metrics')).text;
    expect(metrics).toMatch(/gateway_circuit_breaker_diverted_total\{policy="mini-overload"\} [4-9]/);
    expect(metrics).toMatch(/gateway_circuit_breaker_opened_total\{policy="mini-overload",circuit="main"\} 1/);
  });

  it('header_value matches exactly (case-insensitive), header_contains as a substring, neither by presence', async () => {
    await policy({});
    signalOnce({ 'x-overloaded': 'truely' });
    await send();
    expect(await circuits()).toEqual({});

    await s.admin.put(`${POLICIES}/mini-overload`, {
      name: 'mini-overload',
      primary_provider: 'openai',
      primary_model: 'gpt-4o-mini',
      fallback_provider: 'anthropic',
      fallback_model: 'claude-3-5-haiku-latest',
      condition: { signals: [{ source: 'response_header', header_name: 'X-Status', header_contains: 'OVERLOAD' }] },
    });
    signalOnce({ 'x-status': 'server is overloaded now' });
    await send();
    expect((await circuits())['mini-overload'].signal).toEqual({
      header_name: 'x-status',
      header_value: 'server is overloaded now',
    });

    expect((await s.admin.delete(`${STATE}/mini-overload`)).status).toBe(200);
    await s.admin.put(`${POLICIES}/mini-overload`, {
      primary_provider: 'openai',
      primary_model: 'gpt-4o-mini',
      fallback_provider: 'anthropic',
      fallback_model: 'claude-3-5-haiku-latest',
      condition: { signals: [{ source: 'response_header', header_name: 'x-drain' }] },
    });
    await send();
    expect(await circuits()).toEqual({});
    signalOnce({ 'x-drain': '' });
    await send();
    expect(Object.keys(await circuits())).toEqual(['mini-overload']);
  });

  it('AND needs every signal; OR any one', async () => {
    await policy({
      condition: {
        operator: 'AND',
        signals: [
          { source: 'response_header', header_name: 'x-capacity-remaining', header_value: '0' },
          { source: 'response_header', header_name: 'x-overloaded', header_value: 'true' },
        ],
      },
    });
    signalOnce({ 'x-capacity-remaining': '0' });
    await send();
    expect(await circuits()).toEqual({});
    signalOnce({ 'x-capacity-remaining': '0', 'x-overloaded': 'true' });
    await send();
    expect((await circuits())['mini-overload'].signal.header_name).toBe('x-capacity-remaining');
  });

  it('the cooldown header (ms) wins over default_cooldown when valid', async () => {
    await policy({ default_cooldown: '1m30s', cooldown_header: 'x-cooldown-ms' });
    signalOnce({ 'x-overloaded': 'true', 'x-cooldown-ms': '5000' });
    await send();
    expect((await circuits())['mini-overload'].cooldown).toBe(5_000_000_000);

    expect((await s.admin.delete(`${STATE}/mini-overload`)).status).toBe(200);
    signalOnce({ 'x-overloaded': 'true', 'x-cooldown-ms': 'soon' });
    await send();
    const circuit = (await circuits())['mini-overload'];
    expect(circuit.cooldown).toBe(90_000_000_000);
    expect(Date.parse(circuit.expires_at) - Date.parse(circuit.opened_at)).toBe(90_000);
  });

  it('after expiry the next request is the probe; a signal on it opens the circuit again', async () => {
    await policy({ default_cooldown: '10s' });
    signalOnce({ 'x-overloaded': 'true' });
    await send();
    expect(servedBy(await send())).toBe('anthropic');
    clock.advance(10_001);
    expect(await circuits()).toEqual({});

    signalOnce({ 'x-overloaded': 'true' });
    const probe = await send();
    expect(servedBy(probe)).toBe('openai');
    expect(openaiCalls()).toBe(2);
    expect(servedBy(await send())).toBe('anthropic');
    expect(openaiCalls()).toBe(2);

    clock.advance(10_001);
    const healthy = await send();
    expect(servedBy(healthy)).toBe('openai');
    expect(await circuits()).toEqual({});
    expect(servedBy(await send())).toBe('openai');
  });

  it('concurrent requests at expiry send one probe; the others go to the fallback', async () => {
    await policy({ default_cooldown: '10s' });
    signalOnce({ 'x-overloaded': 'true' });
    await send();
    clock.advance(10_001);
    s.sim.reset();
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'delay', delay_ms: 300 }] });
    const answers = await Promise.all(Array.from({ length: 5 }, () => send()));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((r) => servedBy(r) === 'openai')).toHaveLength(1);
    expect(openaiCalls()).toBe(1);
    expect(anthropicCalls()).toBe(4);
    // The probe came back clean: the circuit is closed and the primary serves again.
    expect(servedBy(await send())).toBe('openai');
  });

  it('a signal on an error answer opens the circuit and that request goes to the fallback without a retry', async () => {
    await policy({});
    signalOnce({ 'x-overloaded': 'true' }, { fault: 'rate_limit', hint: 'retry-after-ms', hint_ms: 10 });
    const res = await send();
    expect(res.status, res.text).toBe(200);
    expect(servedBy(res)).toBe('anthropic');
    expect(openaiCalls()).toBe(1);
    expect(Object.keys(await circuits())).toEqual(['mini-overload']);
  });

  it('the headers of a stream trip it too', async () => {
    await policy({});
    signalOnce({ 'x-overloaded': 'true' });
    const res = await send(PRIMARY, { stream: true });
    expect(res.status).toBe(200);
    expect(sseMessages(res.text).at(-1)!.data).toBe('[DONE]');
    expect(Object.keys(await circuits())).toEqual(['mini-overload']);
    const next = await send(PRIMARY, { stream: true });
    expect(servedBy(next)).toBe('anthropic');
    expect(openaiCalls()).toBe(1);
  });

  it('per-key sub-circuits: a tripped key is skipped; the main circuit opens when every listed key is open', async () => {
    await policy({ primary_key_ids: [keys['oa-1'], keys['oa-2']], default_cooldown: '20s' });
    s.sim.scenario({
      match: { family: 'openai', key: 'sk-oa-1' },
      responses: [{ ok: true, headers: { 'x-overloaded': 'true' } }],
    });
    // Keys are picked by weight: send until oa-1 has answered once (and tripped).
    for (let i = 0; i < 40 && !Object.keys(await circuits()).length; i++) await send();
    expect(Object.keys(await circuits())).toEqual([`mini-overload${NUL}${keys['oa-1']}`]);

    s.sim.reset();
    for (let i = 0; i < 6; i++) expect(servedBy(await send())).toBe('openai');
    const used = s.sim.requests({ family: 'openai' }).map((r) => r.headers.authorization);
    expect(new Set(used)).toEqual(new Set(['Bearer sk-oa-2']));

    s.sim.scenario({
      match: { family: 'openai', key: 'sk-oa-2' },
      responses: [{ ok: true, headers: { 'x-overloaded': 'true' } }],
    });
    await send();
    const state = await circuits();
    expect(Object.keys(state).sort()).toEqual(
      ['mini-overload', `mini-overload${NUL}${keys['oa-1']}`, `mini-overload${NUL}${keys['oa-2']}`].sort(),
    );
    // The main circuit lasts until the first key's circuit ends.
    expect(state['mini-overload'].expires_at).toBe(state[`mini-overload${NUL}${keys['oa-1']}`].expires_at);
    const before = openaiCalls();
    expect(servedBy(await send())).toBe('anthropic');
    expect(openaiCalls()).toBe(before);

    // A sub-circuit closed by hand (URL-encoded NUL) makes its key usable again; the main circuit by hand too.
    expect((await s.admin.delete(`${STATE}/mini-overload%00${keys['oa-1']}`)).status).toBe(200);
    expect((await s.admin.delete(`${STATE}/mini-overload`)).status).toBe(200);
    s.sim.reset();
    for (let i = 0; i < 4; i++) expect(servedBy(await send())).toBe('openai');
    expect(new Set(s.sim.requests({ family: 'openai' }).map((r) => r.headers.authorization))).toEqual(
      new Set(['Bearer sk-oa-1']),
    );
  });

  it('a request pinned to a key whose sub-circuit is open goes to the fallback', async () => {
    await policy({
      primary_key_ids: [keys['oa-1'], keys['oa-2']],
      condition: { signals: [{ source: 'response_header', header_name: 'x-o' }] },
    });
    s.sim.scenario({
      match: { family: 'openai', key: 'sk-oa-1' },
      responses: [{ ok: true, headers: { 'x-o': 'true' } }],
    });
    const pinned = (extra: Record<string, string> = {}) =>
      s.inference.post('/v1/chat/completions', chat(), {
        headers: { 'x-gateway-api-key-id': keys['oa-1']!, ...extra },
      });
    expect(servedBy(await pinned())).toBe('openai');
    const res = await pinned();
    expect(res.status, res.text).toBe(200);
    expect(servedBy(res)).toBe('anthropic');
  });

  it('manual close, disabled policies, and deleting a policy discards its circuits', async () => {
    await policy({});
    signalOnce({ 'x-overloaded': 'true' });
    await send();
    const closed = await s.admin.delete(`${STATE}/mini-overload`);
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.message).toEqual(expect.any(String));
    expect(await circuits()).toEqual({});
    expect(servedBy(await send())).toBe('openai');
    expect((await s.admin.delete(`${STATE}/mini-overload`)).status).toBe(404);

    signalOnce({ 'x-overloaded': 'true' });
    await send();
    expect((await s.admin.delete(`${POLICIES}/mini-overload`)).status).toBe(200);
    expect(await circuits()).toEqual({});
    expect(servedBy(await send())).toBe('openai');

    await policy({ enabled: false });
    signalOnce({ 'x-overloaded': 'true' });
    await send();
    expect(await circuits()).toEqual({});
    expect(servedBy(await send())).toBe('openai');
  });

  it('a policy change takes effect on the next request', async () => {
    await policy({});
    signalOnce({ 'x-overloaded': 'true' });
    await send();
    expect(servedBy(await send())).toBe('anthropic');
    const changed = await s.admin.put(`${POLICIES}/mini-overload`, {
      primary_provider: 'openai',
      primary_model: 'gpt-4o-mini',
      fallback_provider: 'gemini',
      fallback_model: 'gemini-2.0-flash',
      condition: { signals: [{ source: 'response_header', header_name: 'x-overloaded' }] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(servedBy(await send())).toBe('gemini');
  });

  it('a replace keeps the circuits unless it changes the primary, its keys, or disables the policy', async () => {
    const base = {
      primary_provider: 'openai',
      primary_model: 'gpt-4o-mini',
      fallback_provider: 'anthropic',
      fallback_model: 'claude-3-5-haiku-latest',
      condition: { signals: [{ source: 'response_header', header_name: 'x-overloaded' }] },
    };
    await policy({});
    const trip = async () => {
      signalOnce({ 'x-overloaded': 'true' });
      await send();
      expect(Object.keys(await circuits())).toEqual(['mini-overload']);
    };
    await trip();
    expect(
      (
        await s.admin.put(`${POLICIES}/mini-overload`, {
          ...base,
          fallback_model: 'claude-3-7-sonnet-latest',
          default_cooldown: '1m',
        })
      ).status,
    ).toBe(200);
    expect(Object.keys(await circuits())).toEqual(['mini-overload']);
    for (const change of [{ primary_model: 'gpt-4o' }, { primary_key_ids: [keys['oa-1']] }, { enabled: false }]) {
      expect((await s.admin.put(`${POLICIES}/mini-overload`, base)).status).toBe(200);
      await trip();
      const res = await s.admin.put(`${POLICIES}/mini-overload`, { ...base, ...change });
      expect(res.status, res.text).toBe(200);
      expect(await circuits(), JSON.stringify(change)).toEqual({});
    }
    // A refused write changes nothing.
    expect((await s.admin.put(`${POLICIES}/mini-overload`, base)).status).toBe(200);
    await trip();
    expect((await s.admin.put(`${POLICIES}/mini-overload`, { ...base, primary_model: '' })).status).toBe(400);
    expect(Object.keys(await circuits())).toEqual(['mini-overload']);
  });
});
