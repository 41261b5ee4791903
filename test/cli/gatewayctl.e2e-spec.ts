import { chmodSync, existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../clients/typescript/src/cli/commands.js';
import type { CommandSpec } from '../../clients/typescript/src/cli/spec.js';
import { freePort, MAIN_JS } from '../helpers/gateway-process.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { GATEWAYCTL, json, runCli, startCliGateway, type CliGateway } from './cli-kit.js';

/** Every command path of the table (`['teams', 'create']`). */
function commandPaths(command: CommandSpec = ROOT, path: string[] = []): string[][] {
  const here = path.length ? [path] : [];
  return [...here, ...(command.subcommands ?? []).flatMap((sub) => commandPaths(sub, [...path, sub.name]))];
}

/**
 * gatewayctl as a user runs it: the built CLI process (clients/typescript/bin/gatewayctl.js) against the built gateway
 * process, open-source edition behind the setup lock. Needs `npm run build`.
 */
describe.skipIf(!existsSync(MAIN_JS) || !existsSync(GATEWAYCTL))(`gatewayctl commands (${RUN_MODE})`, () => {
  let gw: CliGateway;
  const cli = (args: string[], extra: Record<string, string> = {}, input?: string) =>
    runCli(args, { ...gw.env, ...extra }, { input });

  beforeAll(async () => {
    gw = await startCliGateway();
  }, 120_000);
  afterAll(() => gw?.close());

  it('answers --help on every command with its usage (exit 0), without reaching the gateway', async () => {
    const paths = commandPaths();
    expect(paths.length).toBeGreaterThan(60);
    for (let i = 0; i < paths.length; i += 6) {
      const batch = paths.slice(i, i + 6);
      const results = await Promise.all(
        batch.map((path) => runCli([...path, '--help'], { GATEWAY_URL: 'http://127.0.0.1:9' })),
      );
      results.forEach((result, j) => {
        expect(result.code, `${batch[j]!.join(' ')}: ${result.stderr}`).toBe(0);
        expect(result.stdout).toContain(`Usage: gatewayctl ${batch[j]!.join(' ')}`);
        expect(result.stdout).toContain('--output <format>');
      });
    }
    const root = await runCli(['--help'], {});
    expect(root.stdout).toMatch(/^ {2}virtual-keys +virtual keys/m);
    // Over 60 processes, six at a time: about 15 s on a quiet machine, over 60 s on one running other suites beside.
  }, 180_000);

  it('exits 2 on usage mistakes, with the usage line on stderr', async () => {
    const unknown = await cli(['teams', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const missing = await cli(['teams', 'get']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Usage: gatewayctl teams get <id-or-name> [options]');
    const badOption = await cli(['teams', 'list', '--colour']);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain("Unknown option '--colour'");
    const badChoice = await cli(['status', '-o', 'xml']);
    expect(badChoice.code).toBe(2);
    expect(badChoice.stderr).toContain('--output must be one of table, json, yaml');
    expect((await cli(['teams', 'create', '--data', '{nope'])).code).toBe(2);
  });

  it('status: version, edition, who am I and my permissions', async () => {
    const table = await cli(['status']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^version +0\.1\.0 \(api 1\.0\.0, edition oss\)$/m);
    expect(table.stdout).toMatch(/^caller +setup setup via setup_token, admin$/m);
    const status = json(await cli(['status', '-o', 'json']));
    expect(status).toMatchObject({
      url: gw.url,
      connection: 'environment',
      edition: 'oss',
      api_version: '1.0.0',
      principal: { kind: 'setup', auth_method: 'setup_token' },
      is_admin: true,
    });
    expect(status.permissions).toContain('VirtualKeys:Create');
  });

  it('exits 1 on an API refusal with the GatewayError on stderr, and on an unreachable gateway', async () => {
    const refused = await cli(['status'], { GATEWAY_SETUP_TOKEN: 'wrong-token-123456' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('gatewayctl: 403 setup_token_invalid:');
    const body = JSON.parse(refused.stderr.slice(refused.stderr.indexOf('{')));
    expect(body).toMatchObject({ status_code: 403, is_gateway_error: true, error: { code: 'setup_token_invalid' } });
    const gone = await cli(['teams', 'list'], { GATEWAY_URL: `http://127.0.0.1:${await freePort()}` });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('cannot reach the gateway: ECONNREFUSED');
  });

  it('teams and customers: create, list, get by name, update, delete, in every output format', async () => {
    const created = json(await cli(['teams', 'create', '--set', 'name=platform', '-o', 'json']));
    expect(created.team).toMatchObject({ name: 'platform', budgets: [] });
    const dup = await cli(['teams', 'create', '--set', 'name=platform']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('409 already_exists');
    expect(JSON.parse(dup.stderr.slice(dup.stderr.indexOf('{'))).error.param).toBe('name');

    const table = await cli(['teams', 'list']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +NAME +CUSTOMER_IDS$/);
    expect(table.stdout).toContain(`${created.team.id}  platform`);
    const yaml = await cli(['teams', 'get', 'platform', '-o', 'yaml']);
    expect(yaml.stdout).toContain(`id: ${created.team.id}\nname: platform\n`);
    const budget = JSON.stringify([{ max_limit: 25, reset_duration: '1M' }]);
    const updated = json(await cli(['teams', 'update', 'platform', '--set', `budgets=${budget}`, '-o', 'json']));
    expect(updated.team.budgets[0]).toMatchObject({ max_limit: 25, reset_duration: '1M' });
    const fromStdin = json(await cli(['customers', 'create', '-f', '-', '-o', 'json'], {}, 'name: acme\n'));
    expect(fromStdin.customer.name).toBe('acme');
    expect((await cli(['customers', 'delete', 'acme'])).code).toBe(0);
    const gone = await cli(['customers', 'get', 'acme']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("no customer named 'acme'");
    expect((await gw.admin.get('/api/governance/customers')).body.count).toBe(0);
  });

  it('providers, keys (values never shown), virtual keys with rotate, budgets', async () => {
    expect(
      (await cli(['providers', 'create', '--set', 'provider=openai', '--set', 'base_url=http://127.0.0.1:9/v1'])).code,
    ).toBe(0);
    const key = json(
      await cli([
        'keys',
        'create',
        'openai',
        '--set',
        'name=main',
        '--set',
        'value=sk-cli-provider-secret-1',
        '-o',
        'json',
      ]),
    );
    expect(key.value).toMatchObject({ value: '<REDACTED>', type: 'plain_text' });
    const listed = await cli(['keys', 'list', '--provider', 'openai', '-o', 'json']);
    expect(listed.stdout).not.toContain('sk-cli-provider-secret-1');
    expect(json(await cli(['keys', 'get', 'openai', 'main', '-o', 'json'])).id).toBe(key.id);
    expect(json(await cli(['keys', 'update', 'openai', 'main', '--set', 'weight=2', '-o', 'json'])).weight).toBe(2);

    const vk = json(await cli(['virtual-keys', 'create', '--set', 'name=ci', '--set', 'team_id=null', '-o', 'json']));
    expect(vk.virtual_key.value).toMatch(/^sk-gw-/);
    const rotated = json(await cli(['virtual-keys', 'rotate', 'ci', '--grace-period', '1h', '-o', 'json']));
    expect(rotated.virtual_key.value).toMatch(/^sk-gw-/);
    expect(rotated.virtual_key.value).not.toBe(vk.virtual_key.value);
    // The old value keeps working during the grace period: both answer the quota route.
    for (const value of [vk.virtual_key.value, rotated.virtual_key.value]) {
      const quota = await gw.spawned.http.get('/api/governance/virtual-keys/quota', {
        headers: { authorization: `Bearer ${value}` },
      });
      expect(quota.status).toBe(200);
    }
    const budget = JSON.stringify([{ max_limit: 3, reset_duration: '1d' }]);
    expect((await cli(['virtual-keys', 'update', 'ci', '--set', `budgets=${budget}`])).code).toBe(0);
    const budgets = json<any[]>(await cli(['budgets', 'list', '-o', 'json']));
    expect(budgets.filter((b) => b.owner.kind === 'virtual_key')).toEqual([
      expect.objectContaining({ max_limit: 3, owner: expect.objectContaining({ kind: 'virtual_key', name: 'ci' }) }),
    ]);
    expect((await cli(['budgets', 'list'])).stdout).toMatch(/virtual_key +ci +3 +1d +0/);
    expect((await cli(['keys', 'delete', 'openai', 'main'])).code).toBe(0);
    expect((await cli(['providers', 'delete', 'openai'])).code).toBe(0);
  });

  it('routing rules, model configs, pricing overrides, MCP clients, agents, webhooks, plugins, config', async () => {
    const rule = {
      name: 'to-mini',
      cel_expression: 'true',
      targets: [{ provider: 'openai', model: 'gpt-4o-mini', weight: 1 }],
    };
    expect((await cli(['routing-rules', 'create', '--data', JSON.stringify(rule)])).code).toBe(0);
    expect(
      json(await cli(['routing-rules', 'update', 'to-mini', '--set', 'priority=5', '-o', 'json'])).rule.priority,
    ).toBe(5);
    const mc = { model_name: 'gpt-4o', budgets: [{ max_limit: 1, reset_duration: '1d' }] };
    const modelConfig = json(await cli(['model-configs', 'create', '--data', JSON.stringify(mc), '-o', 'json']));
    expect((await cli(['model-configs', 'get', 'gpt-4o'])).stdout).toContain(modelConfig.model_config.id);
    const po = {
      name: 'cheap',
      scope_kind: 'global',
      match_type: 'exact',
      pattern: 'gpt-4o',
      request_types: ['chat_completion'],
      patch: { input_cost_per_token: 0.000001 },
    };
    expect((await cli(['pricing-overrides', 'create', '--data', JSON.stringify(po)])).code).toBe(0);
    const mcp = await cli([
      'mcp-clients',
      'create',
      '--set',
      'name=docs',
      '--set',
      'connection_type=http',
      '--set',
      'connection_string=http://127.0.0.1:9/mcp',
      '--set',
      'disabled=true',
      '-o',
      'json',
    ]);
    expect(mcp.code, mcp.stderr).toBe(0);
    expect((await cli(['mcp-clients', 'list'])).stdout).toMatch(/docs +http/);
    const agent = await cli([
      'agents',
      'create',
      '--set',
      'name=helper',
      '--set',
      'agent_card_url=http://127.0.0.1:9/.well-known/agent-card.json',
      '--set',
      'enabled=false',
    ]);
    expect(agent.code, agent.stderr).toBe(0);
    expect((await cli(['agents', 'list'])).stdout).toMatch(/helper +http:\/\/127\.0\.0\.1:9/);
    const hook = json(
      await cli(['webhooks', 'create', '--set', 'name=audit', '--set', 'url=http://127.0.0.1:9/hook', '-o', 'json']),
    );
    expect(hook.name).toBe('audit');
    expect(json(await cli(['plugins', 'get', 'logging', '-o', 'json']))).toMatchObject({
      name: 'logging',
      enabled: true,
    });
    const config = json(await cli(['config', 'update', '--set', 'logs.retention=7d', '-o', 'json']));
    expect(config.sources['logs.retention']).toBe('api');
    for (const [group, name] of [
      ['routing-rules', 'to-mini'],
      ['pricing-overrides', 'cheap'],
      ['mcp-clients', 'docs'],
      ['agents', 'helper'],
      ['webhooks', 'audit'],
      ['model-configs', modelConfig.model_config.id],
    ] as const) {
      const res = await cli([group, 'delete', name]);
      expect(res.code, `${group} ${res.stderr}`).toBe(0);
    }
    const enterprise = await cli(['access-profiles', 'list']);
    expect(enterprise.code).toBe(1);
    expect(enterprise.stderr).toContain('404 enterprise_only');
  });

  it('reads a profile file of mode 0600 and refuses one others may read', async () => {
    const home = mkdtempSync(join(tmpdir(), 'gwctl-profiles-'));
    const file = join(home, 'profiles.yaml');
    const env = { GATEWAY_PROFILE_FILE: file };
    const saved = await runCli(
      ['profile', 'set', 'local', '--gateway-url', gw.url, '--setup-token-env', 'TOKEN', '--use'],
      {
        ...env,
        TOKEN: gw.env.GATEWAY_SETUP_TOKEN!,
      },
    );
    expect(saved.code, saved.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const status = json(await runCli(['status', '-o', 'json'], env));
    expect(status).toMatchObject({ url: gw.url, connection: 'profile local' });
    expect((await runCli(['profile', 'list'], env)).stdout).toMatch(/^\* +local +http/m);
    chmodSync(file, 0o644);
    const refused = await runCli(['status'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file} is readable by others (mode 644): run chmod 600`);
    writeFileSync(file, 'profiles: {}\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    const unknown = await runCli(['status', '--profile', 'prod'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no profile 'prod'");
  });

  it('prints completion scripts that offer the commands, their options and their choices', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = await runCli(['completion', shell], {});
      expect(script.code).toBe(0);
      expect(script.stdout).toContain('gatewayctl __complete');
    }
    const top = (await runCli(['__complete'], {})).stdout.split('\n');
    expect(top).toEqual(expect.arrayContaining(['status', 'virtual-keys', 'apply', '--output']));
    const sub = (await runCli(['__complete', 'virtual-keys'], {})).stdout.split('\n');
    expect(sub).toEqual(expect.arrayContaining(['list', 'rotate', 'delete']));
    const choices = (await runCli(['__complete', 'teams', 'list', '--output'], {})).stdout.trim().split('\n');
    expect(choices).toEqual(['table', 'json', 'yaml']);
    expect((await runCli(['completion', 'powershell'], {})).code).toBe(2);
  });
});
