import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMcpLogs } from '../../bench/lib/mcp-log-seed.mjs';
import { seedRequestLogs } from '../../bench/lib/request-log-seed.mjs';
import { createPGlite } from '../../src/core/persistence/pglite-engine.js';
import { migratedAppDir } from '../helpers/databases.js';
import { MAIN_JS } from '../helpers/gateway-process.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { addSimulatedProvider, created } from '../inference/inference-kit.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { GATEWAYCTL, json, runCli, scratchHome, startCliGateway, type CliGateway } from './cli-kit.js';

const ROWS = 100_000;
const MCP_ROWS = 3_000;
const ROW_COLUMNS = 'id, timestamp, provider, model, status, total_tokens, cost, virtual_key_id';

interface DbRow {
  id: string;
  timestamp: string;
  provider: string;
  model: string;
  status: string;
  total_tokens: number | null;
  cost: number | null;
  virtual_key_id: string | null;
}

/** A query runner over the gateway's database before it starts (PGlite's data dir, or the scratch Postgres database). */
async function withDatabase<T>(
  env: Record<string, string>,
  appDir: string,
  use: (q: { query: (sql: string, params?: unknown[]) => Promise<{ rows: any[] }> }) => Promise<T>,
): Promise<T> {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  }
  const db = await createPGlite({ dataDir: join(appDir, 'pgdata') });
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

/** The row as the export shows it (the API's JSON: ISO timestamps, numbers). */
function normalise(row: DbRow) {
  return {
    id: row.id,
    timestamp: new Date(row.timestamp).toISOString(),
    provider: row.provider,
    model: row.model,
    status: row.status,
    total_tokens: row.total_tokens === null ? null : Number(row.total_tokens),
    cost: row.cost === null ? null : Number(row.cost),
    virtual_key_id: row.virtual_key_id,
  };
}

/**
 * `logs export` / `mcp-logs export` / `logs tail` through the real CLI process against the built gateway holding
 * 100,000 request log rows (the bench's seed, straight in SQL before the gateway starts). Needs `npm run build`.
 */
describe.skipIf(!existsSync(MAIN_JS) || !existsSync(GATEWAYCTL))(`gatewayctl logs (${RUN_MODE})`, () => {
  let gw: CliGateway;
  let expected: ReturnType<typeof normalise>[];
  const out = mkdtempSync(join(tmpdir(), 'gwctl-logs-'));

  beforeAll(async () => {
    // The gateway's data is seeded before it starts: a process owns an embedded database.
    const { runModeEnv } = await import('../helpers/spawned-gateway.js');
    const probe = await runModeEnv();
    const appDir = migratedAppDir(probe.env);
    expected = await withDatabase(probe.env, appDir, async (db) => {
      await seedRequestLogs(db, { rows: ROWS, batch: 50_000, days: 10 });
      await seedMcpLogs(db, { rows: MCP_ROWS, batch: MCP_ROWS, days: 10 });
      const { rows } = await db.query(`SELECT ${ROW_COLUMNS} FROM request_logs ORDER BY timestamp, id`);
      return (rows as DbRow[]).map(normalise);
    });
    gw = await startCliGateway({ appDir, mode: probe });
  }, 600_000);
  afterAll(() => gw?.close());

  it('exports every row of the database, oldest first, as JSONL', async () => {
    const file = join(out, 'all.jsonl');
    const res = await runCli(['logs', 'export', '--out', file, '--progress'], gw.env, { timeoutMs: 300_000 });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`logs export: ${ROWS} rows`);
    const rows = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows).toHaveLength(ROWS);
    expect(
      rows.map((r) => ({
        id: r.id,
        timestamp: r.timestamp,
        provider: r.provider,
        model: r.model,
        status: r.status,
        total_tokens: r.total_tokens,
        cost: r.cost,
        virtual_key_id: r.virtual_key_id,
      })),
    ).toEqual(expected);
    expect(existsSync(`${file}.cursor`)).toBe(false);
  }, 300_000);

  it('resumes an interrupted export where it stopped, with no row twice or missing', async () => {
    const file = join(out, 'resumed.jsonl');
    const child = spawn(
      process.execPath,
      [GATEWAYCTL, 'logs', 'export', '--out', file, '--page-size', '500', '--progress'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: scratchHome(), ...gw.env },
      },
    );
    let stderr = '';
    let interrupted = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // Ctrl-C at the first progress line, which follows the first page (once: a second Ctrl-C ends the process at
      // once). Plain progress lines come at most once a second, and on a quiet machine the rest of the export can end
      // within that second: waiting for a later line let it finish uninterrupted.
      if (!interrupted && /: [\d,]+\/100,000/.test(stderr)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((ok) => child.on('close', ok));
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('resume with: --resume');
    const partial = readFileSync(file, 'utf8').trimEnd().split('\n').length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(ROWS);
    const rest = await runCli(['logs', 'export', '--out', file, '--resume'], gw.env, { timeoutMs: 300_000 });
    expect(rest.code, rest.stderr).toBe(0);
    const ids = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual(expected.map((r) => r.id));
    const again = await runCli(['logs', 'export', '--out', file, '--resume'], gw.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('nothing to resume');

    // To stdout: the interrupted export prints a cursor, and --cursor continues from it.
    const piped = spawn(
      process.execPath,
      [GATEWAYCTL, 'logs', 'export', '--providers', 'openai', '--page-size', '200', '--progress'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: scratchHome(), ...gw.env },
      },
    );
    let head = '';
    let told = '';
    piped.stdout.on('data', (chunk: Buffer) => (head += chunk.toString()));
    piped.stderr.on('data', (chunk: Buffer) => {
      told += chunk.toString();
      if (!interrupted2 && /: [\d,]+\//.test(told)) {
        interrupted2 = true;
        piped.kill('SIGINT');
      }
    });
    let interrupted2 = false;
    expect(await new Promise((ok) => piped.on('close', ok)), told).toBe(130);
    const cursor = /resume with: --cursor (\S+)/.exec(told)![1]!;
    const tail = await runCli(['logs', 'export', '--providers', 'openai', '--cursor', cursor], gw.env, {
      timeoutMs: 300_000,
    });
    expect(tail.code, tail.stderr).toBe(0);
    const joined = (head + tail.stdout)
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(joined).toEqual(expected.filter((r) => r.provider === 'openai').map((r) => r.id));
  }, 300_000);

  it('exports CSV with the filters of the API, from an offset, and continues from a printed cursor', async () => {
    const provider = 'anthropic';
    const mine = expected.filter((r) => r.provider === provider && r.status === 'error');
    const csv = await runCli(
      ['logs', 'export', '--providers', provider, '--status', 'error', '--format', 'csv'],
      gw.env,
    );
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^id,timestamp,status,status_code,object,provider,model,/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(mine.map((r) => r.id));

    const skipped = await runCli(
      ['logs', 'export', '--providers', provider, '--status', 'error', '--offset', '10'],
      gw.env,
    );
    expect(
      skipped.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(mine.slice(10).map((r) => r.id));
    const bad = await runCli(['logs', 'export', '--page-size', '5000'], gw.env);
    expect(bad.code).toBe(2);
    const refused = await runCli(['logs', 'export', '--min-latency=-5'], gw.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('400 validation_failed');
  }, 120_000);

  it('exports MCP tool logs', async () => {
    const res = await runCli(['mcp-logs', 'export', '--no-progress'], gw.env, { timeoutMs: 120_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = res.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(MCP_ROWS);
    expect(new Set(rows.map((r) => r.id)).size).toBe(MCP_ROWS);
    expect(rows.map((r) => r.timestamp)).toEqual([...rows.map((r) => r.timestamp)].sort());
  }, 120_000);

  describe('logs tail', () => {
    let sim: Simulator;
    beforeAll(async () => {
      sim = await startSimulator();
    });
    afterAll(() => sim?.close());

    it('follows new rows through /ws, filtered, until --limit', async () => {
      await addSimulatedProvider(gw.admin, sim, 'openai', { 'tail-key': 'sk-tail-provider-1' });
      await addSimulatedProvider(gw.admin, sim, 'anthropic', { 'tail-key-2': 'sk-tail-provider-2' });
      const vk = (await created(gw.admin.post('/api/governance/virtual-keys', { name: 'tail-vk' }))).virtual_key.value;
      const tail = runCli(
        ['logs', 'tail', '--providers', 'openai', '--limit', '2', '-o', 'json', '--timeout', '60'],
        gw.env,
      );
      // Requests go out once the tail listens (its ready line).
      await new Promise((ok) => setTimeout(ok, 3_000));
      const send = (model: string) =>
        gw.spawned.http.post(
          '/v1/chat/completions',
          { model, messages: [{ role: 'user', content: 'tail me' }] },
          {
            headers: { authorization: `Bearer ${vk}` },
          },
        );
      expect((await send('anthropic/claude-3-5-haiku')).status).toBe(200);
      expect((await send('openai/gpt-4o-mini')).status).toBe(200);
      expect((await send('openai/gpt-4o')).status).toBe(200);
      const res = await tail;
      expect(res.code, res.stderr).toBe(0);
      const rows = res.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(rows.map((r) => [r.provider, r.model, r.virtual_key_name])).toEqual([
        ['openai', 'gpt-4o-mini', 'tail-vk'],
        ['openai', 'gpt-4o', 'tail-vk'],
      ]);
      const text = json(await runCli(['status', '-o', 'json'], gw.env));
      expect(text.edition).toBe('oss');
    }, 120_000);
  });
});
