import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError, OSS_CONFIG, ossClient, RFC3339_UTC } from '../governance/governance-test-kit.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { created, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

const POLICIES = '/api/circuit-breaker/policies';
const STATE = '/api/circuit-breaker/state';

const policy = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'openai-overload',
  primary_provider: 'openai',
  primary_model: 'gpt-4o',
  fallback_provider: 'anthropic',
  fallback_model: 'claude-sonnet-4-5',
  condition: { signals: [{ header_name: 'x-overloaded', header_value: 'true' }] },
  ...extra,
});

/** Circuit breaker policies (enterprise): CRUD, validation and the state routes of the management plane. */
describe(`circuit breaker policies (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let openaiKeys: Record<string, string>;
  let anthropicKey: string;

  async function names(): Promise<string[]> {
    const listed = await s.admin.get(POLICIES);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.count).toBe(listed.body.policies.length);
    return listed.body.policies.map((p: any) => p.name);
  }

  beforeAll(async () => {
    s = await startInferenceStack({ edition: 'enterprise' });
    const keys = await s.admin.get('/api/providers/openai/keys');
    openaiKeys = Object.fromEntries(keys.body.keys.map((k: any) => [k.name, k.id]));
    anthropicKey = (await s.admin.get('/api/providers/anthropic/keys')).body.keys[0].id;
  });
  afterAll(() => s?.close());
  beforeEach(async () => {
    for (const name of await names()) expect((await s.admin.delete(`${POLICIES}/${name}`)).status).toBe(200);
  });

  it('creates with defaults, reads, lists by name, replaces and deletes', async () => {
    const res = await s.admin.post(POLICIES, policy());
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      name: 'openai-overload',
      primary_provider: 'openai',
      primary_model: 'gpt-4o',
      fallback_provider: 'anthropic',
      fallback_model: 'claude-sonnet-4-5',
      condition: {
        operator: 'OR',
        signals: [{ source: 'response_header', header_name: 'x-overloaded', header_value: 'true' }],
      },
      enabled: true,
      primary_key_ids: [],
      default_cooldown: '30s',
      cooldown_header: null,
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    expect((await s.admin.get(`${POLICIES}/openai-overload`)).body).toEqual(res.body);

    await created(
      s.admin.post(
        POLICIES,
        policy({
          name: 'anthropic-busy',
          primary_provider: 'anthropic',
          primary_model: 'claude-sonnet-4-5',
          fallback_provider: 'openai',
          fallback_model: 'gpt-4o',
          condition: {
            operator: 'AND',
            signals: [
              { source: 'response_header', header_name: 'retry-after' },
              { header_name: 'x-status', header_contains: 'busy' },
            ],
          },
          primary_key_ids: [anthropicKey],
          default_cooldown: '1m30s',
          cooldown_header: 'x-cooldown-ms',
          enabled: false,
        }),
      ),
    );
    const listed = await s.admin.get(POLICIES);
    expect(listed.body.count).toBe(2);
    expect(listed.body.policies.map((p: any) => p.name)).toEqual(['anthropic-busy', 'openai-overload']);
    expect(listed.body.policies[0]).toMatchObject({
      condition: {
        operator: 'AND',
        signals: [
          { source: 'response_header', header_name: 'retry-after' },
          { source: 'response_header', header_name: 'x-status', header_contains: 'busy' },
        ],
      },
      primary_key_ids: [anthropicKey],
      default_cooldown: '1m30s',
      cooldown_header: 'x-cooldown-ms',
      enabled: false,
    });

    // PUT replaces the whole policy: what it leaves out takes its default again.
    const replaced = await s.admin.put(
      `${POLICIES}/anthropic-busy`,
      policy({ name: undefined, primary_key_ids: [openaiKeys['oa-1'], openaiKeys['oa-2']] }),
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({
      name: 'anthropic-busy',
      primary_provider: 'openai',
      primary_key_ids: [openaiKeys['oa-1'], openaiKeys['oa-2']],
      default_cooldown: '30s',
      cooldown_header: null,
      enabled: true,
      created_at: listed.body.policies[0].created_at,
    });
    expect((await s.admin.get(`${POLICIES}/anthropic-busy`)).body).toEqual(replaced.body);
    const sameName = await s.admin.put(`${POLICIES}/anthropic-busy`, policy({ name: 'anthropic-busy' }));
    expect(sameName.status, sameName.text).toBe(200);

    const deleted = await s.admin.delete(`${POLICIES}/anthropic-busy`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: expect.any(String) });
    expect(await names()).toEqual(['openai-overload']);
  });

  it('refuses a duplicate name with 409 and answers 404 for a policy that does not exist', async () => {
    await created(s.admin.post(POLICIES, policy()));
    const dup = await s.admin.post(POLICIES, policy({ primary_model: 'gpt-4o-mini' }));
    expectError(dup, 409, 'already_exists');
    expect(dup.body.type).toBe('conflict');
    expect((await s.admin.get(`${POLICIES}/openai-overload`)).body.primary_model).toBe('gpt-4o');

    expectError(await s.admin.get(`${POLICIES}/nope`), 404, 'circuit_breaker_policy_not_found');
    expectError(
      await s.admin.put(`${POLICIES}/nope`, policy({ name: undefined })),
      404,
      'circuit_breaker_policy_not_found',
    );
    expectError(await s.admin.delete(`${POLICIES}/nope`), 404, 'circuit_breaker_policy_not_found');
    expect(await names()).toEqual(['openai-overload']);
  });

  it('refuses a PUT whose body names another policy (400 name)', async () => {
    await created(s.admin.post(POLICIES, policy()));
    const res = await s.admin.put(`${POLICIES}/openai-overload`, policy({ name: 'renamed', primary_model: 'o3' }));
    expectError(res, 400, 'validation_failed', 'name');
    expect((await s.admin.get(`${POLICIES}/openai-overload`)).body.primary_model).toBe('gpt-4o');
    expect(await names()).toEqual(['openai-overload']);
  });

  it('echoes default_cooldown as written', async () => {
    for (const [i, cooldown] of ['1m30s', '1.5h', '250ms', '2h45m'].entries()) {
      const res = await created(s.admin.post(POLICIES, policy({ name: `p-${i}`, default_cooldown: cooldown })));
      expect(res.default_cooldown).toBe(cooldown);
      expect((await s.admin.get(`${POLICIES}/p-${i}`)).body.default_cooldown).toBe(cooldown);
    }
  });

  describe('validation: 400 naming the field, nothing written', () => {
    const signal = (extra: Record<string, unknown>) => ({ condition: { signals: [extra] } });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['name missing', { name: undefined }, 'name'],
      ['name pattern', { name: 'Bad_Name' }, 'name'],
      ['name too long', { name: 'a'.repeat(256) }, 'name'],
      ['name not a string', { name: 5 }, 'name'],
      ['primary_provider unknown', { primary_provider: 'nope' }, 'primary_provider'],
      ['primary_provider missing', { primary_provider: undefined }, 'primary_provider'],
      ['fallback_provider unknown', { fallback_provider: 'OpenAI' }, 'fallback_provider'],
      ['primary_model empty', { primary_model: '' }, 'primary_model'],
      ['primary_model missing', { primary_model: undefined }, 'primary_model'],
      ['fallback_model empty', { fallback_model: '' }, 'fallback_model'],
      ['fallback_model not a string', { fallback_model: 3 }, 'fallback_model'],
      ['condition missing', { condition: undefined }, 'condition'],
      ['condition not an object', { condition: 'OR' }, 'condition'],
      ['condition null', { condition: null }, 'condition'],
      ['operator unknown', { condition: { operator: 'XOR', signals: [{ header_name: 'x' }] } }, 'condition.operator'],
      ['signals missing', { condition: { operator: 'OR' } }, 'condition.signals'],
      ['signals empty', { condition: { signals: [] } }, 'condition.signals'],
      ['signals not an array', { condition: { signals: 'x' } }, 'condition.signals'],
      ['signal source unknown', signal({ source: 'body', header_name: 'x' }), 'condition.signals[0].source'],
      ['signal header_name missing', signal({ header_value: 'v' }), 'condition.signals[0].header_name'],
      ['signal header_name empty', signal({ header_name: '' }), 'condition.signals[0].header_name'],
      ['signal header_name not a token', signal({ header_name: 'x overloaded' }), 'condition.signals[0].header_name'],
      ['signal header_name with a colon', signal({ header_name: 'x:y' }), 'condition.signals[0].header_name'],
      [
        'signal header_value empty',
        signal({ header_name: 'x', header_value: '' }),
        'condition.signals[0].header_value',
      ],
      [
        'signal header_contains empty',
        signal({ header_name: 'x', header_contains: '' }),
        'condition.signals[0].header_contains',
      ],
      [
        'signal with both header_value and header_contains',
        {
          condition: { signals: [{ header_name: 'a' }, { header_name: 'x', header_value: 'a', header_contains: 'b' }] },
        },
        'condition.signals[1].header_contains',
      ],
      ['signal unknown field', signal({ header_name: 'x', regex: '.*' }), 'condition.signals[0].regex'],
      ['enabled not a boolean', { enabled: 'yes' }, 'enabled'],
      ['enabled null', { enabled: null }, 'enabled'],
      ['default_cooldown not a duration', { default_cooldown: '30' }, 'default_cooldown'],
      ['default_cooldown zero', { default_cooldown: '0s' }, 'default_cooldown'],
      ['default_cooldown negative', { default_cooldown: '-5s' }, 'default_cooldown'],
      ['default_cooldown empty', { default_cooldown: '' }, 'default_cooldown'],
      ['default_cooldown a number', { default_cooldown: 30 }, 'default_cooldown'],
      ['cooldown_header not a token', { cooldown_header: 'retry after' }, 'cooldown_header'],
      ['cooldown_header empty', { cooldown_header: '' }, 'cooldown_header'],
      ['primary_key_ids not an array', { primary_key_ids: 'oa-1' }, 'primary_key_ids'],
      ['primary_key_ids item not a string', { primary_key_ids: [1] }, 'primary_key_ids[0]'],
      ['primary_key_ids unknown key', { primary_key_ids: ['not-a-key'] }, 'primary_key_ids'],
      [
        'same provider and model as fallback',
        { fallback_provider: 'openai', fallback_model: 'gpt-4o' },
        'fallback_model',
      ],
      ['unknown field', { priority: 1 }, 'priority'],
    ];
    for (const [what, extra, param] of cases) {
      it(`${what}: ${param}`, async () => {
        await created(s.admin.post(POLICIES, policy({ name: 'keep-me' })));
        const body = policy({ name: 'new-one', ...extra });
        expectError(await s.admin.post(POLICIES, body), 400, 'validation_failed', param);
        if (param !== 'name') {
          expectError(
            await s.admin.put(`${POLICIES}/keep-me`, { ...body, name: 'keep-me' }),
            400,
            'validation_failed',
            param,
          );
        }
        expect(await names()).toEqual(['keep-me']);
        expect((await s.admin.get(`${POLICIES}/keep-me`)).body.primary_model).toBe('gpt-4o');
      });
    }

    it('primary_key_ids: a key of another provider, and a key listed twice', async () => {
      const other = await s.admin.post(POLICIES, policy({ primary_key_ids: [anthropicKey] }));
      expectError(other, 400, 'validation_failed', 'primary_key_ids');
      const twice = await s.admin.post(POLICIES, policy({ primary_key_ids: [openaiKeys['oa-1'], openaiKeys['oa-1']] }));
      expectError(twice, 400, 'validation_failed', 'primary_key_ids');
      const mixed = await s.admin.post(POLICIES, policy({ primary_key_ids: [openaiKeys['oa-1'], anthropicKey] }));
      expectError(mixed, 400, 'validation_failed', 'primary_key_ids');
      expect(await names()).toEqual([]);
    });

    it('a fallback on the same provider with another model is fine, and the same model elsewhere too', async () => {
      await created(s.admin.post(POLICIES, policy({ name: 'a', fallback_provider: 'openai', fallback_model: 'o3' })));
      await created(
        s.admin.post(POLICIES, policy({ name: 'b', fallback_provider: 'azure', fallback_model: 'gpt-4o' })),
      );
      expect(await names()).toEqual(['a', 'b']);
    });
  });

  describe('state', () => {
    it('lists no circuit at first', async () => {
      const res = await s.admin.get(STATE);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ circuits: {} });
    });

    it('closing a circuit that is not open answers 404 circuit_not_found', async () => {
      expectError(await s.admin.delete(`${STATE}/openai-overload`), 404, 'circuit_not_found');
    });

    it('a sub-circuit key reaches the handler with its NUL character', async () => {
      const key = `openai-overload\u0000${openaiKeys['oa-1']}`;
      const res = await s.admin.delete(`${STATE}/${encodeURIComponent(key)}`);
      expectError(res, 404, 'circuit_not_found');
      expect(res.body.error.message).toContain(JSON.stringify(key));
    });
  });
});

describe(`circuit breaker routes in the open-source edition (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: OSS_CONFIG });
  });
  afterAll(() => gw?.close());

  it('every route answers 404 enterprise_only', async () => {
    const admin = ossClient(gw);
    const results = [
      await admin.get(POLICIES),
      await admin.post(POLICIES, policy()),
      await admin.get(`${POLICIES}/openai-overload`),
      await admin.put(`${POLICIES}/openai-overload`, policy()),
      await admin.delete(`${POLICIES}/openai-overload`),
      await admin.get(STATE),
      await admin.delete(`${STATE}/openai-overload`),
    ];
    for (const res of results) expectError(res, 404, 'enterprise_only');
  });
});
