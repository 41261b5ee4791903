import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignProfile, createProfile, createUser, PROFILES } from '../access-profiles/access-profiles-kit.js';
import { MAIN_JS } from '../helpers/gateway-process.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { auditCount, GATEWAYCTL, json, managementKey, runCli, startCliGateway, type CliGateway } from './cli-kit.js';

const dir = mkdtempSync(join(tmpdir(), 'gwctl-enterprise-'));

/**
 * gatewayctl on an enterprise gateway with dashboard auth, driven by scoped management keys: a key without the scope
 * a plan needs is refused before any write, naming the permission; access profiles and circuit-breaker policies
 * round-trip through export and apply; a propagation is followed to its end. Needs `npm run build`.
 */
describe.skipIf(!existsSync(MAIN_JS) || !existsSync(GATEWAYCTL))(`gatewayctl, enterprise edition (${RUN_MODE})`, () => {
  let gw: CliGateway;
  let everything: Record<string, string>;

  beforeAll(async () => {
    // Propagations answer 202 at once: the CLI follows the job.
    gw = await startCliGateway({ enterprise: true, env: { GATEWAY_ACCESS_PROFILES_PROPAGATION_WAIT: '0s' } });
    const all = (await gw.admin.get('/api/governance/users/me/permissions')).body.permissions as string[];
    everything = { ...gw.env, GATEWAY_API_KEY: await managementKey(gw, 'automation', all) };
    const created = await gw.admin.post('/api/providers', { provider: 'openai', base_url: 'http://127.0.0.1:9/v1' });
    expect(created.status, created.text).toBe(201);
    expect(
      (await gw.admin.post('/api/providers/openai/keys', { name: 'primary', value: 'env.CLI_PRIMARY' })).status,
    ).toBe(201);
  }, 120_000);
  afterAll(() => gw?.close());

  it('status names the management key and its scopes; keys are made with the CLI too', async () => {
    const made = await runCli(
      [
        'management-keys',
        'create',
        '--data',
        JSON.stringify({ name: 'reader', scopes: ['Teams:View', 'VirtualKeys:View'] }),
        '-o',
        'json',
      ],
      everything,
    );
    expect(made.code, made.stderr).toBe(0);
    const key = json(made).value as string;
    expect(key).toMatch(/^gwm_/);
    expect((await runCli(['management-keys', 'list'], everything)).stdout).toMatch(
      /reader +Teams:View,VirtualKeys:View/,
    );
    const status = json(await runCli(['status', '-o', 'json'], { ...gw.env, GATEWAY_API_KEY: key }));
    expect(status).toMatchObject({
      edition: 'enterprise',
      principal: { kind: 'management_key', name: 'reader' },
      is_admin: false,
      permissions: ['Teams:View', 'VirtualKeys:View'],
    });
  });

  it('refuses a plan the key has no scope for before any write, naming each missing Resource:Operation', async () => {
    const scoped = await managementKey(gw, 'teams-only', [
      'Teams:View',
      'Teams:Create',
      'Teams:Update',
      'Governance:View',
      'ModelProvider:View',
    ]);
    const path = join(dir, 'scoped.yaml');
    writeFileSync(
      path,
      [
        'version: 1',
        'teams:',
        '  - name: scoped-team',
        'providers:',
        '  - provider: openai',
        '    governance:',
        '      budgets: [{ max_limit: 10, reset_duration: 1d }]',
        '',
      ].join('\n'),
    );
    const before = await auditCount(gw);
    const res = await runCli(['apply', '-f', path], { ...gw.env, GATEWAY_API_KEY: scoped });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('the caller lacks Governance:Update, needed to create provider governance openai');
    expect(res.stdout).toBe('');
    expect(await auditCount(gw)).toBe(before);
    // Governance:Update is what changing existing provider governance needs.
    expect(
      (await gw.admin.put('/api/governance/providers/openai', { budgets: [{ max_limit: 1, reset_duration: '1d' }] }))
        .status,
    ).toBe(200);
    const update = await runCli(['apply', '-f', path], { ...gw.env, GATEWAY_API_KEY: scoped });
    expect(update.code).toBe(1);
    expect(update.stderr).toContain('the caller lacks Governance:Update, needed to update provider governance openai');
    expect(await auditCount(gw)).toBe(before + 1);
    // A key that cannot read a kind the file manages is told so too.
    const blind = await managementKey(gw, 'blind', ['Teams:View']);
    const read = await runCli(['diff', '-f', path], { ...gw.env, GATEWAY_API_KEY: blind });
    expect(read.code).toBe(1);
    expect(read.stderr).toContain('the caller lacks ModelProvider:View, needed to read what the files manage');
  });

  it('round-trips access profiles and circuit-breaker policies through export and apply', async () => {
    const profile = await createProfile(gw.admin, {
      name: 'engineers',
      description: 'Default engineers',
      tags: ['eng'],
      provider_configs: [{ provider_name: 'openai', allowed_models: ['gpt-4o'] }],
      budgets: [{ max_limit: 20, reset_duration: '1M', scope: 'total' }],
      rate_limit: { request_max_limit: 60, request_reset_duration: '1m' },
    });
    const key = (await gw.admin.get('/api/providers/openai/keys')).body.keys[0];
    const policy = await gw.admin.post('/api/circuit-breaker/policies', {
      name: 'openai-overload',
      primary_provider: 'openai',
      primary_model: 'gpt-4o',
      primary_key_ids: [key.id],
      fallback_provider: 'openai',
      fallback_model: 'gpt-4o-mini',
      condition: { signals: [{ header_name: 'x-overloaded' }] },
    });
    expect(policy.status, policy.text).toBe(201);
    const exported = await runCli(['export'], everything);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/access_profiles:\n {2}- name: engineers\n/);
    expect(exported.stdout).toMatch(
      /circuit_breakers:\n {2}- name: openai-overload\n[\s\S]*primary_keys:\n {6}- primary\n/,
    );
    const path = join(dir, 'enterprise.yaml');
    writeFileSync(path, exported.stdout);
    expect((await gw.admin.delete(`${PROFILES}/${profile.id}`)).status).toBe(200);
    expect((await gw.admin.delete('/api/circuit-breaker/policies/openai-overload')).status).toBe(200);
    const plan = json(await runCli(['diff', '-f', path, '-o', 'json'], everything));
    expect(plan.create).toEqual([
      { kind: 'access_profiles', name: 'engineers' },
      { kind: 'circuit_breakers', name: 'openai-overload' },
    ]);
    expect((await runCli(['apply', '-f', path], everything)).code).toBe(0);
    expect((await runCli(['export'], everything)).stdout).toBe(exported.stdout);
  });

  it('access-profiles propagate follows the job to its end, with plain progress lines off a terminal', async () => {
    const profile = await createProfile(gw.admin, {
      name: 'analysts',
      budgets: [{ max_limit: 5, reset_duration: '1d', scope: 'total' }],
    });
    const users = [];
    for (let i = 0; i < 12; i += 1) users.push(await createUser(gw.admin));
    for (const user of users) await assignProfile(gw.admin, user, profile.id);
    expect(
      (
        await gw.admin.put(`${PROFILES}/${profile.id}`, {
          budgets: [{ max_limit: 9, reset_duration: '1d', scope: 'total' }],
        })
      ).status,
    ).toBe(200);

    const dry = json(
      await runCli(
        ['access-profiles', 'propagate', 'analysts', '--fields', 'budgets', '--dry-run', '-o', 'json'],
        everything,
      ),
    );
    expect(dry).toMatchObject({ applied: false, affected_users: 12, failed_users: 0, skipped_users: 0 });

    const res = await runCli(
      ['access-profiles', 'propagate', 'analysts', '--fields', 'budgets', '-o', 'json'],
      everything,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/^propagation \S+: completed \(12\/12 users\)$/m);
    const job = json(res);
    expect(job).toMatchObject({
      status: 'completed',
      processed: 12,
      total: 12,
      result: { affected_users: 12, failed_users: 0 },
    });
    const copies = await gw.admin.get(`/api/governance/users/${users[0]}/access-profiles`);
    const vk = await gw.admin.get(`/api/governance/virtual-keys/${copies.body.access_profiles[0].virtual_key_ids[0]}`);
    expect(vk.body.budgets.map((b: any) => b.max_limit)).toEqual([9]);
    const usage = await runCli(['access-profiles', 'propagate', 'analysts'], everything);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--fields is required');
  });
});
