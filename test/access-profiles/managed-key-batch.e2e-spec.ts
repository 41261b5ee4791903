import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileFields } from '../../src/modules/access-profiles/access-profile-fields.js';
import { ManagedKeyWriter } from '../../src/modules/access-profiles/managed-key.writer.js';
import { sql } from '../governance/governance-test-kit.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { assignProfile, createProfile, createUser, PROFILES } from './access-profiles-kit.js';

/** What users get: two providers with their own limits, budgets of both scopes, a rate limit, MCP grants. */
const V1 = {
  provider_configs: [
    {
      provider_name: 'openai',
      budgets: [{ max_limit: 4, reset_duration: '1d' }],
      rate_limit: { request_max_limit: 50, request_reset_duration: '1h' },
    },
    { provider_name: 'anthropic' },
  ],
  budgets: [
    { max_limit: 5, reset_duration: '1d' },
    { max_limit: 2, reset_duration: '1w', scope: 'provider:anthropic' },
  ],
  rate_limit: { request_max_limit: 100, request_reset_duration: '1h' },
  mcp_servers: [{ mcp_server_id: 'server-a' }],
};
/**
 * What the keys are rewritten to: openai kept (its 1d budget kept, a 1h one added, its rate limit's window changed),
 * anthropic dropped with its budget, gemini added; the total 1d budget kept, a monthly one added; the key's rate limit
 * gains a token window (changed windows: counters start again).
 */
const V2 = {
  provider_configs: [
    {
      provider_name: 'openai',
      all_models_allowed: false,
      allowed_models: ['gpt-4o-mini'],
      budgets: [
        { max_limit: 6, reset_duration: '1d' },
        { max_limit: 1, reset_duration: '1h' },
      ],
      rate_limit: { request_max_limit: 60, request_reset_duration: '1d' },
    },
    { provider_name: 'gemini', weight: 2 },
  ],
  budgets: [
    { max_limit: 9, reset_duration: '1d' },
    { max_limit: 30, reset_duration: '1M' },
  ],
  rate_limit: {
    request_max_limit: 200,
    request_reset_duration: '1h',
    token_max_limit: 5000,
    token_reset_duration: '1d',
  },
  mcp_servers: [{ mcp_server_id: 'server-c' }],
  mcp_tool_overrides: [{ mcp_client_id: 'server-d', tool_name: 'fetch', action: 'include' }],
};

type Limit = { id: string; current_usage?: number; request_current_usage?: number };

/**
 * ManagedKeyWriter.writeMany (the propagation's batch path) against write (its per-user fallback): the same keys,
 * with the same usage, rewritten either way end up with the same provider configs, budgets, rate limits and grants,
 * the same ids kept and the same usage kept or zeroed, as the API shows them.
 */
describe(`managed keys rewritten in a batch (${RUN_MODE})`, () => {
  let s: InferenceStack;
  let dataSource: DataSource;
  let writer: ManagedKeyWriter;

  beforeAll(async () => {
    s = await startInferenceStack({ edition: 'enterprise' });
    dataSource = s.gw.app.get(DataSource);
    writer = s.gw.app.get(ManagedKeyWriter);
  });
  afterAll(() => s?.close());

  async function keyOf(id: string): Promise<any> {
    const res = await s.admin.get(`/api/governance/virtual-keys/${id}`);
    expect(res.status, res.text).toBe(200);
    return res.body.virtual_key ?? res.body;
  }

  const limitsOf = (key: any): Limit[] => [
    ...key.budgets,
    ...(key.rate_limit ? [key.rate_limit] : []),
    ...key.provider_configs.flatMap((pc: any) => [...pc.budgets, ...(pc.rate_limit ? [pc.rate_limit] : [])]),
  ];

  /** A key's view with ids and usage told relative to its view before the rewrite (kept / new, kept / zero). */
  function relative(before: any, after: any): unknown {
    const old = new Map(limitsOf(before).map((l) => [l.id, l]));
    const usage = (l: Limit, field: 'current_usage' | 'request_current_usage') => {
      const was = old.get(l.id)?.[field];
      return l[field] === undefined ? undefined : l[field] === 0 ? 'zero' : l[field] === was ? 'kept' : l[field];
    };
    const limit = (l: any) =>
      l && {
        ...l,
        id: old.has(l.id) ? 'kept' : 'new',
        last_reset: undefined,
        current_usage: usage(l, 'current_usage'),
        request_current_usage: usage(l, 'request_current_usage'),
      };
    const oldConfigs = new Set(before.provider_configs.map((pc: any) => pc.id));
    return {
      mcp_configs: after.mcp_configs,
      budgets: after.budgets.map(limit),
      rate_limit: limit(after.rate_limit),
      provider_configs: after.provider_configs.map((pc: any) => ({
        ...pc,
        id: oldConfigs.has(pc.id) ? 'kept' : 'new',
        budgets: pc.budgets.map(limit),
        rate_limit: limit(pc.rate_limit),
      })),
    };
  }

  /** Budget and rate-limit rows of the keys (and their configs), without ids, owners and times. */
  async function storedRows(keyId: string): Promise<unknown[]> {
    return sql(
      s.gw,
      `SELECT coalesce(pc.provider, '(key)') AS owner, 'budget' AS kind, b.max_limit::text AS a,
         b.reset_duration AS b, b.calendar_aligned::text AS c, NULL AS d
       FROM budgets b LEFT JOIN virtual_key_provider_configs pc ON pc.id = b.provider_config_id
       WHERE b.virtual_key_id = $1 OR pc.virtual_key_id = $1
       UNION ALL
       SELECT coalesce(pc.provider, '(key)'), 'rate_limit', r.request_max_limit::text, r.request_reset_duration,
         r.token_max_limit::text, r.token_reset_duration
       FROM rate_limits r LEFT JOIN virtual_key_provider_configs pc ON pc.id = r.provider_config_id
       WHERE r.virtual_key_id = $1 OR pc.virtual_key_id = $1
       ORDER BY 1, 2, 3, 4`,
      [keyId],
    );
  }

  it('writeMany over several keys equals write per key: rows, kept ids and kept usage', async () => {
    const profile = await createProfile(s.admin, { name: 'batch-v1', ...V1 });
    const target = await createProfile(s.admin, { name: 'batch-v2', ...V2 });
    const fields = (await s.admin.get(`${PROFILES}/${target.id}`)).body.access_profile as ProfileFields;
    const keys: { id: string; value: string }[] = [];
    for (let i = 0; i < 6; i++) {
      keys.push((await assignProfile(s.admin, await createUser(s.admin), profile.id)).virtual_key);
    }
    // Usage on every key: the openai config's budget and rate limit, the key's budgets and rate limit.
    for (const key of keys) {
      const res = await s.gw.http
        .withHeaders({ authorization: `Bearer ${key.value}` })
        .post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status, res.text).toBe(200);
    }
    for (const key of keys) {
      await expect
        .poll(async () => {
          const k = await keyOf(key.id);
          return k.budgets[0].current_usage > 0 && k.rate_limit.request_current_usage === 1;
        })
        .toBe(true);
    }
    const before = new Map<string, any>();
    for (const key of keys) before.set(key.id, await keyOf(key.id));
    const [one, many] = [keys.slice(0, 3), keys.slice(3)];

    // The fallback: one key at a time.
    for (const key of one) {
      const toReset = await dataSource.transaction((m) => writer.write(m, key.id, fields, { resetUsage: false }));
      await writer.afterCommit(toReset);
    }
    // The batch: every key in one call.
    const toReset = await dataSource.transaction((m) =>
      writer.writeMany(
        m,
        many.map((k) => ({ virtualKeyId: k.id, fields })),
        { resetUsage: false },
      ),
    );
    await writer.afterCommit(toReset);

    const views = new Map<string, unknown>();
    for (const key of keys) views.set(key.id, relative(before.get(key.id), await keyOf(key.id)));
    const expected = views.get(one[0]!.id);
    for (const key of keys) expect(views.get(key.id)).toEqual(expected);
    const rows = await storedRows(one[0]!.id);
    for (const key of keys) expect(await storedRows(key.id)).toEqual(rows);
    // What both did, once: kept ids keep their usage where the window kept its length.
    expect(expected).toMatchObject({
      mcp_configs: [
        { mcp_client_id: 'server-c', tools_to_execute: ['*'] },
        { mcp_client_id: 'server-d', tools_to_execute: ['fetch'] },
      ],
      budgets: [
        { id: 'kept', max_limit: 9, reset_duration: '1d', current_usage: 'kept' },
        { id: 'new', max_limit: 30, reset_duration: '1M', current_usage: 'zero' },
      ],
      // A token window added: the kept rate limit's counters start again.
      rate_limit: { id: 'kept', request_max_limit: 200, token_max_limit: 5000, request_current_usage: 'zero' },
      provider_configs: [
        { id: 'new', provider: 'gemini', weight: 2, budgets: [], rate_limit: null },
        {
          id: 'kept',
          provider: 'openai',
          allowed_models: ['gpt-4o-mini'],
          budgets: [
            { id: 'new', reset_duration: '1h', current_usage: 'zero' },
            { id: 'kept', max_limit: 6, reset_duration: '1d', current_usage: 'kept' },
          ],
          rate_limit: { id: 'kept', request_reset_duration: '1d', request_current_usage: 'zero' },
        },
      ],
    });
    // The dropped anthropic config took its budget along.
    const [weekly] = await sql(s.gw, 'SELECT count(*)::int AS n FROM budgets WHERE reset_duration = $1', ['1w']);
    expect(weekly.n).toBe(0);
    for (const key of keys) {
      expect((await keyOf(key.id)).provider_configs.map((pc: any) => pc.provider)).toEqual(['gemini', 'openai']);
    }

    // reset_usage: every id kept, every counter zeroed, either way.
    const mid = new Map<string, any>();
    for (const key of keys) mid.set(key.id, await keyOf(key.id));
    for (const key of one) {
      const reset = await dataSource.transaction((m) => writer.write(m, key.id, fields, { resetUsage: true }));
      await writer.afterCommit(reset);
    }
    const reset = await dataSource.transaction((m) =>
      writer.writeMany(
        m,
        many.map((k) => ({ virtualKeyId: k.id, fields })),
        { resetUsage: true },
      ),
    );
    await writer.afterCommit(reset);
    for (const key of keys) {
      const after = await keyOf(key.id);
      expect(limitsOf(after).map((l) => l.id)).toEqual(limitsOf(mid.get(key.id)).map((l) => l.id));
      for (const l of limitsOf(after)) expect(l.current_usage ?? l.request_current_usage).toBe(0);
    }
  });
});
