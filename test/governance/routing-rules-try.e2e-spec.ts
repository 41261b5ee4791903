import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { created, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { expectError } from './governance-test-kit.js';

const RULES = '/api/governance/routing-rules';

/**
 * The dashboard's rule editor and "try" panel (issue 47 §2): an expression checked as a create would check it, with
 * where it fails; a sample request evaluated by the request path's engine, agreeing with a real request through /v1.
 */
describe(`routing rules: validate and try (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let vkId: string;

  beforeAll(async () => {
    s = await startInferenceStack();
    const vks = await s.admin.get('/api/governance/virtual-keys');
    vkId = vks.body.virtual_keys.find((k: any) => k.name === 'inference-tests').id;
  });
  afterAll(() => s?.close());
  beforeEach(async () => {
    s.sim.reset();
    for (const r of (await s.admin.get(RULES)).body.rules)
      expect((await s.admin.delete(`${RULES}/${r.id}`)).status).toBe(200);
  });

  it('validate: a good expression is valid; a bad one gives the create’s message and its line and column', async () => {
    const ok = await s.admin.post(`${RULES}/validate`, { cel_expression: 'headers["x-tier"] == "premium"' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ valid: true, message: null, position: null });

    // A syntax error on the second line: the parser's position.
    const syntax = await s.admin.post(`${RULES}/validate`, { cel_expression: 'model == "a" &&\n  provider ==' });
    expect(syntax.status).toBe(200);
    expect(syntax.body.valid).toBe(false);
    expect(syntax.body.position).toMatchObject({ line: 2, column: 12 });
    // The same message a create gives for it.
    const refused = await s.admin.post(RULES, {
      name: 'bad',
      cel_expression: 'model == "a" &&\n  provider ==',
      targets: [{ provider: 'openai', weight: 1 }],
    });
    expectError(refused, 400, 'validation_failed', 'cel_expression');
    expect(syntax.body.message).toBe(refused.body.error.message);

    // An unknown variable or function: where the name stands.
    const unknown = await s.admin.post(`${RULES}/validate`, { cel_expression: 'model == "x" || tier == "gold"' });
    expect(unknown.body).toEqual({
      valid: false,
      message: "cel_expression does not compile: unknown variable 'tier'",
      position: { line: 1, column: 17, offset: 16 },
    });
    const fn = await s.admin.post(`${RULES}/validate`, { cel_expression: 'nosuch(model)' });
    expect(fn.body.valid).toBe(false);
    expect(fn.body.message).toMatch(/unknown function 'nosuch'/);
    expect(fn.body.position).toMatchObject({ line: 1 });

    const empty = await s.admin.post(`${RULES}/validate`, { cel_expression: '' });
    expect(empty.body.valid).toBe(false);
    // Nothing is written by a check.
    expect((await s.admin.get(RULES)).body.count).toBe(0);
    // A body that is not the request's shape is a 400 naming the field.
    expectError(
      await s.admin.post(`${RULES}/validate`, { cel_expression: 5 }),
      400,
      'validation_failed',
      'cel_expression',
    );
    expectError(
      await s.admin.post(`${RULES}/validate`, { cel_expression: 'x'.repeat(4097) }),
      400,
      'validation_failed',
      'cel_expression',
    );
  });

  it('try: the matched rule, its targets and the chain; the same request through /v1 goes there', async () => {
    await created(
      s.admin.post(RULES, {
        name: 'low-priority',
        cel_expression: 'true',
        targets: [{ provider: 'gemini', model: 'gemini-2.5-flash', weight: 1 }],
        priority: 10,
      }),
    );
    const rule = (
      await created(
        s.admin.post(RULES, {
          name: 'premium-fallback',
          cel_expression: 'headers["x-tier"] == "premium"',
          targets: [{ provider: 'openai', model: 'sim-rate-limit', weight: 1 }],
          fallbacks: ['anthropic/claude-sonnet-4-5'],
          priority: 1,
        }),
      )
    ).rule;

    const tried = await s.admin.post(`${RULES}/try`, {
      provider: 'openai',
      model: 'gpt-4o-mini',
      headers: { 'X-Tier': 'premium' },
      fallbacks: ['gemini/gemini-2.5-flash'],
    });
    expect(tried.status, tried.text).toBe(200);
    expect(tried.body).toEqual({
      matched: true,
      steps: [
        {
          rule_id: rule.id,
          rule_name: 'premium-fallback',
          targets: [{ provider: 'openai', model: 'sim-rate-limit', weight: 1 }],
          provider: 'openai',
          model: 'sim-rate-limit',
          key_id: null,
        },
      ],
      chain: ['openai/sim-rate-limit', 'anthropic/claude-sonnet-4-5'],
    });

    // The request path agrees: the target fails (the simulator's rate limit), the rule's fallback answers.
    const sent = await s.inference.post(
      '/v1/chat/completions',
      { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'route me' }] },
      { headers: { 'x-tier': 'premium' } },
    );
    expect(sent.status, sent.text).toBe(200);
    expect(sent.headers.get('x-gateway-routing-info-provider')).toBe('anthropic');
    expect(sent.headers.get('x-gateway-routing-info-routing-rule-id')).toBe(rule.id);

    // Without the header the next rule (by priority) decides; the sample's own fallbacks stay.
    const plain = await s.admin.post(`${RULES}/try`, {
      provider: 'openai',
      model: 'gpt-4o-mini',
      fallbacks: ['anthropic/claude-sonnet-4-5'],
    });
    expect(plain.body.steps.map((step: any) => step.rule_name)).toEqual(['low-priority']);
    expect(plain.body.chain).toEqual(['gemini/gemini-2.5-flash', 'anthropic/claude-sonnet-4-5']);

    // A try counts nothing in the rule metrics (only the real request above did).
    const metrics = (await s.admin.get('/metrics')).text;
    expect(metrics).toMatch(/gateway_routing_rule_matches_total\{rule="premium-fallback"\} 1\n/);
    expect(metrics).not.toMatch(/gateway_routing_rule_matches_total\{rule="low-priority"\}/);
  });

  it('try: no rule matches; a virtual key’s own rules; refusals name the field', async () => {
    const none = await s.admin.post(`${RULES}/try`, { model: 'some-bare-model' });
    expect(none.status, none.text).toBe(200);
    expect(none.body).toEqual({ matched: false, steps: [], chain: ['some-bare-model'] });

    await created(
      s.admin.post(RULES, {
        name: 'mine',
        cel_expression: 'virtual_key_name == "inference-tests" && request_type == "embedding"',
        targets: [{ provider: 'openai', model: 'text-embedding-3-large', weight: 1 }],
        scope: 'virtual_key',
        scope_id: vkId,
      }),
    );
    const asKey = await s.admin.post(`${RULES}/try`, {
      provider: 'openai',
      model: 'text-embedding-3-small',
      request_type: 'embedding',
      virtual_key_id: vkId,
    });
    expect(asKey.body.chain).toEqual(['openai/text-embedding-3-large']);
    const noKey = await s.admin.post(`${RULES}/try`, {
      provider: 'openai',
      model: 'text-embedding-3-small',
      request_type: 'embedding',
    });
    expect(noKey.body.matched).toBe(false);

    const missing = '00000000-0000-4000-8000-000000000000';
    expectError(
      await s.admin.post(`${RULES}/try`, { model: 'm', virtual_key_id: missing }),
      400,
      'validation_failed',
      'virtual_key_id',
    );
    expectError(await s.admin.post(`${RULES}/try`, {}), 400, 'validation_failed', 'model');
    expectError(
      await s.admin.post(`${RULES}/try`, { model: 'm', provider: 'nope' }),
      400,
      'validation_failed',
      'provider',
    );
    expectError(
      await s.admin.post(`${RULES}/try`, { model: 'm', headers: { 'x-n': 5 } }),
      400,
      'validation_failed',
      'headers.x-n',
    );
    // Credentials first: no setup token, no evaluation.
    expectError(await s.gw.http.post(`${RULES}/try`, { model: 'm' }), 401, 'setup_token_required');
  });
});
