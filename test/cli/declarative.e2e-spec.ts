import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS } from '../helpers/gateway-process.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { auditCount, GATEWAYCTL, json, runCli, startCliGateway, type CliGateway } from './cli-kit.js';

const dir = mkdtempSync(join(tmpdir(), 'gwctl-declarative-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const PLAIN_SECRET = 'sk-declarative-plain-secret-1';

/** A state with one of everything the open-source edition manages, written through the API as a dashboard would. */
async function seed(gw: CliGateway): Promise<void> {
  const a = gw.admin;
  const ok = async (p: Promise<{ status: number; text: string; body: any }>) => {
    const res = await p;
    if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
    return res.body;
  };
  await ok(
    a.post('/api/providers', {
      provider: 'openai',
      base_url: 'http://127.0.0.1:9/v1',
      extra_headers: { 'X-Org': 'env.CLI_OPENAI_ORG' },
    }),
  );
  const main = await ok(
    a.post('/api/providers/openai/keys', { name: 'main', value: 'env.CLI_OPENAI_KEY', models: ['gpt-4o'] }),
  );
  await ok(a.post('/api/providers/openai/keys', { name: 'plain', value: PLAIN_SECRET, weight: 2 }));
  await ok(a.put('/api/governance/providers/openai', { budgets: [{ max_limit: 100, reset_duration: '1M' }] }));
  const acme = await ok(
    a.post('/api/governance/customers', { name: 'acme', budgets: [{ max_limit: 50, reset_duration: '1w' }] }),
  );
  const ml = await ok(
    a.post('/api/governance/teams', {
      name: 'ml',
      budgets: [{ max_limit: 20, reset_duration: '1d', calendar_aligned: true }],
      rate_limit: { request_max_limit: 100, request_reset_duration: '1m' },
    }),
  );
  const docs = await ok(
    a.post('/api/mcp/client', {
      name: 'docs',
      connection_type: 'http',
      connection_string: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'env.CLI_DOCS_TOKEN' },
      disabled: true,
    }),
  );
  const vk = await ok(
    a.post('/api/governance/virtual-keys', {
      name: 'ci',
      description: 'CI jobs',
      team_id: ml.team.id,
      provider_configs: [{ provider: 'openai', key_ids: [main.id], allowed_models: ['gpt-4o'] }],
      budgets: [{ max_limit: 5, reset_duration: '1d' }],
      mcp_configs: [{ mcp_client_id: docs.client.id, tools_to_execute: ['search', 'fetch'] }],
    }),
  );
  await ok(a.post('/api/governance/virtual-keys', { name: 'billing', customer_id: acme.customer.id }));
  await ok(
    a.post('/api/governance/routing-rules', {
      name: 'prefer-main',
      scope: 'team',
      scope_id: ml.team.id,
      cel_expression: 'true',
      targets: [{ provider: 'openai', model: 'gpt-4o', key_id: main.id, weight: 1 }],
    }),
  );
  await ok(
    a.post('/api/governance/model-configs', {
      model_name: 'gpt-4o',
      provider: 'openai',
      scope: 'virtual_key',
      scope_id: vk.virtual_key.id,
      rate_limit: { token_max_limit: 5000, token_reset_duration: '1h' },
    }),
  );
  await ok(
    a.post('/api/governance/pricing-overrides', {
      name: 'ci-discount',
      scope_kind: 'virtual_key',
      virtual_key_id: vk.virtual_key.id,
      match_type: 'exact',
      pattern: 'gpt-4o',
      request_types: ['chat_completion'],
      patch: { input_cost_per_token: 0.000001 },
    }),
  );
  await ok(
    a.post('/api/webhooks', { name: 'audit', url: 'http://127.0.0.1:9/hook', headers: { 'X-Hook': 'env.CLI_HOOK' } }),
  );
  await ok(a.put('/api/plugins/jsonparser', { enabled: true }));
  await ok(a.put('/api/config', { logs: { retention: '7d' } }));
}

/**
 * Declarative config through the real CLI process against two built gateways: export from one, apply onto a fresh
 * one, and every rule of issue 48 §3 (idempotence checked in the audit log, prune, select, bad input, refusals).
 */
describe.skipIf(!existsSync(MAIN_JS) || !existsSync(GATEWAYCTL))(
  `gatewayctl export / diff / apply (${RUN_MODE})`,
  () => {
    let source: CliGateway;
    let target: CliGateway;
    let exported: string;
    let exportedPath: string;
    const secretEnv = { GATEWAY_SECRET_OPENAI_PLAIN_VALUE: PLAIN_SECRET };
    const on = (gw: CliGateway, args: string[], extra: Record<string, string> = {}) =>
      runCli(args, { ...gw.env, ...extra });

    beforeAll(async () => {
      [source, target] = await Promise.all([startCliGateway(), startCliGateway()]);
      await seed(source);
    }, 180_000);
    afterAll(async () => {
      await Promise.all([source?.close(), target?.close()]);
    });

    it('export writes the state with secrets as references and never a value', async () => {
      const res = await on(source, ['export']);
      expect(res.code, res.stderr).toBe(0);
      exported = res.stdout;
      exportedPath = file('gateway.yaml', exported);
      expect(exported).not.toContain(PLAIN_SECRET);
      expect(exported).toContain('value: env.CLI_OPENAI_KEY');
      expect(exported).toContain('fromEnv: GATEWAY_SECRET_OPENAI_PLAIN_VALUE');
      expect(exported).toContain('Authorization: env.CLI_DOCS_TOKEN');
      expect(exported).toMatch(/virtual_keys:\n {2}- name: billing\n[\s\S]*customer: acme/);
      expect(exported).toMatch(/- name: ci\n {4}description: CI jobs\n[\s\S]*team: ml\n[\s\S]*keys:\n {10}- main/);
      // The key's MCP grant names its client, not its id.
      expect(exported).toMatch(
        /- name: ci\n[\s\S]*mcp:\n {6}- client: docs\n {8}tools:\n {10}- search\n {10}- fetch\n/,
      );
      expect(exported).toMatch(/routing_rules:\n {2}- name: prefer-main\n[\s\S]*scope: team\n {4}team: ml/);
      expect(exported).toMatch(/config:\n {2}logs:\n {4}retention: 7d\n/);
      expect(exported).not.toMatch(/\b(id|created_at|current_usage|secret):/);
    });

    it('apply onto a fresh gateway reproduces the export byte for byte, and prints the new key values once', async () => {
      const plan = await on(target, ['diff', '-f', exportedPath, '-o', 'json']);
      expect(plan.code, plan.stderr).toBe(0);
      expect(json(plan).create.map((c: any) => `${c.kind}/${c.name}`)).toEqual([
        'providers/openai',
        'provider_keys/openai/main',
        'provider_keys/openai/plain',
        'provider_governance/openai',
        'customers/acme',
        'teams/ml',
        'mcp_clients/docs',
        'virtual_keys/billing',
        'virtual_keys/ci',
        'model_configs/openai/gpt-4o@virtual_key:ci',
        'routing_rules/team:ml:prefer-main',
        'pricing_overrides/ci-discount',
        'webhooks/audit',
      ]);
      const applied = await on(target, ['apply', '-f', exportedPath], secretEnv);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout).toMatch(/^created team ml$/m);
      expect(applied.stdout).toMatch(/^ {2}virtual key ci: sk-gw-\S+$/m);
      const again = await on(target, ['export']);
      expect(again.stdout).toBe(exported);
      // The plain-text key went over as the value of its variable: the gateway holds it, encrypted, not the reference.
      const plain = (await target.admin.get('/api/providers/openai/keys')).body.keys.find(
        (k: any) => k.name === 'plain',
      );
      expect(plain.value).toMatchObject({ type: 'plain_text', value: '<REDACTED>' });
    });

    it('a second apply changes nothing and writes nothing (the audit log)', async () => {
      const before = await auditCount(target);
      const res = await on(target, ['apply', '-f', exportedPath], secretEnv);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe('No changes: the gateway matches the files.\n');
      expect(await auditCount(target)).toBe(before);
    });

    it('diff after a dashboard edit shows exactly that edit', async () => {
      const team = (await target.admin.get('/api/governance/teams')).body.teams[0];
      const edit = await target.admin.put(`/api/governance/teams/${team.id}`, {
        budgets: [{ max_limit: 99, reset_duration: '1d' }],
      });
      expect(edit.status).toBe(200);
      const diff = await on(target, ['diff', '-f', exportedPath]);
      expect(diff.stdout).toBe(
        'Plan: 0 to create, 1 to update, 0 to delete.\n\n~ team ml\n' +
          '    budgets: [{"max_limit":99,"reset_duration":"1d","calendar_aligned":false}] -> ' +
          '[{"max_limit":20,"reset_duration":"1d","calendar_aligned":true}]\n',
      );
      expect((await on(target, ['diff', '-f', exportedPath, '--exit-code'])).code).toBe(3);
      expect((await on(target, ['apply', '-f', exportedPath])).stdout).toBe('updated team ml\n');
      expect((await on(target, ['export'])).stdout).toBe(exported);
    });

    it('--prune deletes only what the files do not name', async () => {
      await target.admin.post('/api/governance/teams', { name: 'stray' });
      await target.admin.post('/api/governance/virtual-keys', { name: 'stray-key' });
      const keep = await on(target, ['apply', '-f', exportedPath]);
      expect(keep.stdout).toBe('No changes: the gateway matches the files.\n');
      const plan = json(await on(target, ['diff', '-f', exportedPath, '--prune', '-o', 'json']));
      expect(plan).toEqual({
        create: [],
        update: [],
        delete: [
          { kind: 'virtual_keys', name: 'stray-key' },
          { kind: 'teams', name: 'stray' },
        ],
      });
      const pruned = await on(target, ['apply', '-f', exportedPath, '--prune']);
      expect(pruned.stdout).toBe('deleted virtual key stray-key\ndeleted team stray\n');
      expect((await on(target, ['export'])).stdout).toBe(exported);
    });

    it('reports every bad input with its place before anything is written', async () => {
      const before = await auditCount(target);
      const broken = file('broken.yaml', 'version: 1\nteams:\n  - name: a\n    name: b\n');
      const yaml = await on(target, ['apply', '-f', broken]);
      expect(yaml.code).toBe(1);
      expect(yaml.stderr).toContain(`${broken}:4:5: Map keys must be unique`);
      const bad = file(
        'bad.yaml',
        [
          'version: 1',
          'teams:',
          '  - name: new-team',
          '    colour: blue',
          'virtual_keys:',
          '  - name: new-key',
          '    is_active: "yes"',
          '  - name: orphan',
          '    team: no-such-team',
          'providers:',
          '  - provider: anthropic',
          '    keys:',
          '      - name: main',
          '        value: sk-a-plain-value-in-git',
          '',
        ].join('\n'),
      );
      const res = await on(target, ['apply', '-f', bad]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`${bad}:4:5: unknown field 'colour'`);
      expect(res.stderr).toContain(`${bad}:7:16: expected true or false, got string`);
      expect(res.stderr).toContain(`${bad}:14:16: a secret must be a reference`);
      expect(res.stderr).toContain('3 problems; nothing was written');
      // Once the file is well-formed, references are checked against the files and the gateway, all before writing.
      const unknown = file(
        'unknown.yaml',
        'version: 1\nvirtual_keys:\n  - name: orphan\n    team: no-such-team\n  - name: other\n    customer: nobody\n',
      );
      const refs = await on(target, ['apply', '-f', unknown]);
      expect(refs.code).toBe(1);
      expect(refs.stderr).toContain(`${unknown}:4:11: unknown team 'no-such-team'`);
      expect(refs.stderr).toContain(`${unknown}:6:15: unknown customer 'nobody'`);
      expect(await auditCount(target)).toBe(before);
    });

    it('a refusal stops the apply, says what was and was not applied, and the next apply finishes the rest', async () => {
      const text = (cel: string) =>
        [
          'version: 1',
          'teams:',
          '  - name: data',
          'routing_rules:',
          '  - name: broken',
          `    cel_expression: "${cel}"`,
          '    targets: [{ provider: openai, model: gpt-4o, weight: 1 }]',
          '',
        ].join('\n');
      const path = file('partial.yaml', text('request.model =='));
      const res = await on(target, ['apply', '-f', path]);
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('created team data\n');
      expect(res.stderr).toContain('400 validation_failed');
      expect(res.stderr).toContain('apply stopped at: create routing rule broken');
      expect(res.stderr).toContain('applied (1):\n  created team data\n');
      expect(res.stderr).toContain('not applied (1):\n  create routing rule broken\n');
      writeFileSync(path, text("request.model == 'gpt-4o'"));
      const rest = await on(target, ['apply', '-f', path]);
      expect(rest.stdout).toBe('created routing rule broken\n');
      expect((await on(target, ['apply', '-f', path])).stdout).toBe('No changes: the gateway matches the files.\n');
    });

    it('merges several files, refuses an object named twice, and scopes to one team with select', async () => {
      const base = file('base.yaml', 'version: 1\nteams:\n  - name: search\n');
      const keys = file(
        'search-keys.yaml',
        'version: 1\nselect: { team: search }\nvirtual_keys:\n  - name: search-a\n    team: search\n  - name: search-b\n    team: search\n',
      );
      const merged = await on(target, ['apply', '-f', base, '-f', keys, '--write-keys', join(dir, 'keys.yaml')]);
      expect(merged.code, merged.stderr).toBe(0);
      // Keys of one kind are written side by side: their lines come in any order, after their team's.
      const lines = merged.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('created team search');
      expect(lines.slice(1).sort()).toEqual(['created virtual key search-a', 'created virtual key search-b']);
      const written = readFileSync(join(dir, 'keys.yaml'), 'utf8');
      // The key file follows the same order as the creates: one line per key, in any order.
      expect(written.endsWith('\n')).toBe(true);
      const keyLines = written.trimEnd().split('\n').sort();
      expect(keyLines).toHaveLength(2);
      expect(keyLines[0]).toMatch(/^virtual key search-a: sk-gw-\S+$/);
      expect(keyLines[1]).toMatch(/^virtual key search-b: sk-gw-\S+$/);
      expect(statSync(join(dir, 'keys.yaml')).mode & 0o777).toBe(0o600);

      const twice = await on(target, ['diff', '-f', base, '-f', base]);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain(`team search is also defined at ${base}:3`);

      // The team's file, pruned: deletes its own key it no longer names, never another team's.
      const only = file(
        'search-only.yaml',
        'version: 1\nselect: { team: search }\nvirtual_keys:\n  - name: search-a\n    team: search\n',
      );
      const plan = json(await on(target, ['diff', '-f', only, '--prune', '-o', 'json']));
      expect(plan.delete).toEqual([{ kind: 'virtual_keys', name: 'search-b' }]);
      const outside = file(
        'outside.yaml',
        'version: 1\nselect: { team: search }\nvirtual_keys:\n  - name: stolen\n    team: ml\n',
      );
      const refused = await on(target, ['diff', '-f', outside]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('virtual key stolen is not owned by team search, which the apply is scoped to');
    });
  },
);
