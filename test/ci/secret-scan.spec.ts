import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { mask, scan } from '../../scripts/ci/secret-scan.mjs';

const SCRIPT = resolve('scripts/ci/secret-scan.mjs');
const PROVIDER_KEY = 'sk-planted-provider-key-0001';
const VK = 'sk-gw-v1-plantedvirtualkey000000000000';

interface ScanResult {
  secrets: number;
  logLines: number;
  responses: number;
  hits: Array<{ file: string; line: number; secret: string; source: string }>;
}

/** An evidence directory as test/helpers/evidence.ts writes it. */
function evidence(logs: string[], responses: Array<Record<string, unknown>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'secret-scan-'));
  writeFileSync(
    join(dir, 'secrets-1.ndjson'),
    [
      { value: PROVIDER_KEY, source: '/api/providers/openai/keys value' },
      { value: VK, source: '/api/governance/virtual-keys virtual_key.value' },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  writeFileSync(join(dir, 'logs-1.log'), logs.join('\n') + '\n');
  writeFileSync(join(dir, 'responses-1.ndjson'), responses.map((r) => JSON.stringify(r)).join('\n') + '\n');
  dirs.push(dir);
  return dir;
}
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const clean = {
  logs: ['{"level":30,"msg":"request completed"}', '{"level":40,"msg":"key <REDACTED>"}'],
  responses: [
    // The one response allowed to carry a virtual key's value: the create that returned it.
    {
      method: 'POST',
      path: '/api/governance/virtual-keys',
      status: 201,
      text: JSON.stringify({ value: VK }),
      exempt: [VK],
    },
    { method: 'GET', path: '/api/providers/openai/keys', status: 200, text: '{"value":"<REDACTED>"}', exempt: [] },
  ],
};

describe('secrets scan (scripts/ci/secret-scan.mjs)', () => {
  it('clean evidence: zero hits, and the counts say what was read', () => {
    const result = scan(evidence(clean.logs, clean.responses)) as ScanResult;
    expect(result).toEqual({ secrets: 2, logLines: 2, responses: 2, hits: [] });
  });

  it('finds a secret planted in a log line, naming file, line and source, with the secret masked', () => {
    const dir = evidence([...clean.logs, `{"level":50,"msg":"upstream said no","key":"${PROVIDER_KEY}"}`], []);
    const result = scan(dir) as ScanResult;
    expect(result.hits).toEqual([
      { file: 'logs-1.log', line: 3, secret: mask(PROVIDER_KEY), source: '/api/providers/openai/keys value' },
    ]);
    expect(mask(PROVIDER_KEY)).not.toContain(PROVIDER_KEY.slice(4));
  });

  it('finds a virtual key value in any response but the one that created it', () => {
    const leak = { method: 'GET', path: '/api/governance/virtual-keys', status: 200, text: `[{"value":"${VK}"}]` };
    const result = scan(evidence(clean.logs, [...clean.responses, leak])) as ScanResult;
    expect(result.hits).toEqual([
      { file: 'responses-1.ndjson', line: 3, secret: mask(VK), source: expect.stringContaining('virtual_key.value') },
    ]);
  });

  it('the CLI exits 1 on a hit and 0 on clean evidence, and never prints the secret', () => {
    const run = (dir: string) => {
      try {
        return { code: 0, out: execFileSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' }) };
      } catch (err) {
        const e = err as { status: number; stdout: string };
        return { code: e.status, out: e.stdout };
      }
    };
    const ok = run(evidence(clean.logs, clean.responses));
    expect(ok).toEqual({ code: 0, out: expect.stringContaining('0 hits') });
    const bad = run(evidence([`token ${PROVIDER_KEY}`], []));
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('logs-1.log:1');
    expect(bad.out).not.toContain(PROVIDER_KEY);
  });
});
