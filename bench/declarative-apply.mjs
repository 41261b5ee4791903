// gatewayctl apply at scale (issue 48 figures): a declarative file of --teams teams (each with a monthly budget),
// --keys virtual keys spread over them (each with a daily budget and a rate limit) and --rules routing rules scoped
// to teams, applied by the CLI process onto an empty embedded gateway (target <= 30 s), then applied again with
// nothing to change (target <= 5 s, and no write: the audit log's count is compared), then a diff that must be empty.
// Also the CLI's CPU time and peak RSS. Needs `npm run build`.
// Usage: node bench/declarative-apply.mjs [--teams 100] [--keys 1000] [--rules 50] [--scale-out]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { cpuMs, runGatewayctl } from './lib/cli.mjs';
import { manage, startGateway } from './lib/gateway.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values } = parseArgs({
  options: {
    teams: { type: 'string', default: '100' },
    keys: { type: 'string', default: '1000' },
    rules: { type: 'string', default: '50' },
    'scale-out': { type: 'boolean', default: false },
  },
});
const TEAMS = Number(values.teams);
const KEYS = Number(values.keys);
const RULES = Number(values.rules);

function configFile() {
  const team = (i) => `team-${String(i).padStart(3, '0')}`;
  const lines = ['version: 1', 'teams:'];
  for (let i = 0; i < TEAMS; i += 1) {
    lines.push(`  - name: ${team(i)}`, '    budgets:', '      - { max_limit: 500, reset_duration: 1M }');
  }
  lines.push('virtual_keys:');
  for (let i = 0; i < KEYS; i += 1) {
    lines.push(
      `  - name: key-${String(i).padStart(4, '0')}`,
      `    team: ${team(i % TEAMS)}`,
      '    budgets:',
      '      - { max_limit: 5, reset_duration: 1d }',
      '    rate_limit: { request_max_limit: 600, request_reset_duration: 1m }',
    );
  }
  lines.push('routing_rules:');
  for (let i = 0; i < RULES; i += 1) {
    lines.push(
      `  - name: rule-${String(i).padStart(2, '0')}`,
      '    scope: team',
      `    team: ${team(i % TEAMS)}`,
      `    cel_expression: "request.model == 'gpt-4o'"`,
      '    targets: [{ provider: openai, model: gpt-4o-mini, weight: 1 }]',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-apply-'));
  const path = join(dir, 'gateway.yaml');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

await runBench(
  async () => {
    console.log(machineLine());
    const scaleOut = values['scale-out'] || scaleOutRequested() ? await createScratchScaleOut() : undefined;
    // A loaded machine can take minutes to start the gateway (its figures then say so with the load average).
    const gw = await startGateway({ env: { ...scaleOut?.env }, logLevel: 'warn', healthTimeoutMs: 600_000 });
    const env = { GATEWAY_URL: gw.base, GATEWAY_SETUP_TOKEN: gw.setupToken };
    const file = configFile();
    const audit = async () => (await manage(gw, 'GET', '/api/audit-logs?limit=1')).pagination.total_count;
    const objects = TEAMS + KEYS + RULES;
    console.log(
      `mode ${scaleOut ? 'Postgres + Redis' : 'embedded'}: ${TEAMS} teams, ${KEYS} virtual keys, ${RULES} routing rules`,
    );

    const gwCpu = cpuMs(gw.pid);
    const first = await runGatewayctl(
      ['apply', '-f', file, '--write-keys', join(tmpdir(), `gw-bench-keys-${process.pid}.yaml`)],
      env,
    );
    if (first.code !== 0) throw new Error(`apply failed: ${first.stderr}`);
    const created = first.stdout.split('\n').filter((l) => l.startsWith('created ')).length;
    if (created !== objects) throw new Error(`apply created ${created} objects, expected ${objects}`);
    const firstGwCpu = cpuMs(gw.pid) - gwCpu;
    const writes = await audit();
    console.log(
      `apply onto an empty gateway: ${(first.wallMs / 1000).toFixed(1)} s (target <= 30 s), ${objects} objects, ` +
        `${Math.round(objects / (first.wallMs / 1000))} objects/s; gateway CPU ${(firstGwCpu / 1000).toFixed(1)} s ` +
        `(${(firstGwCpu / objects).toFixed(1)} ms per object); CLI CPU ${first.cpuMs} ms, peak RSS ${first.peakRssMb.toFixed(0)} MB`,
    );

    const againGwCpu = cpuMs(gw.pid);
    const again = await runGatewayctl(['apply', '-f', file], env);
    const againGw = cpuMs(gw.pid) - againGwCpu;
    if (again.code !== 0 || !again.stdout.startsWith('No changes'))
      throw new Error(`re-apply changed something: ${again.stdout}`);
    const after = await audit();
    console.log(
      `apply again, nothing to change: ${(again.wallMs / 1000).toFixed(2)} s (target <= 5 s); audit rows ${writes} -> ${after}` +
        ` (${after === writes ? 'no write' : 'WRITES'}); gateway CPU ${againGw} ms; CLI CPU ${again.cpuMs} ms, peak RSS ` +
        `${again.peakRssMb.toFixed(0)} MB`,
    );
    const diff = await runGatewayctl(['diff', '-f', file, '--exit-code'], env);
    console.log(
      `diff: exit ${diff.code} (${diff.code === 0 ? 'empty' : 'NOT EMPTY'}) in ${(diff.wallMs / 1000).toFixed(2)} s`,
    );
    console.log(
      `\n| figure | value | target |\n| --- | --- | --- |\n` +
        `| apply ${KEYS} VKs + ${TEAMS} teams + ${RULES} rules, empty gateway | ${(first.wallMs / 1000).toFixed(1)} s | <= 30 s |\n` +
        `| apply again (no change, ${after === writes ? 'no write' : 'writes!'}) | ${(again.wallMs / 1000).toFixed(2)} s | <= 5 s |`,
    );
    console.log(machineLine('end'));
  },
  { maxSeconds: 2400 },
);
