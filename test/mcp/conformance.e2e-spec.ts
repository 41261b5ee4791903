import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';
import { startConformancePeer, type ConformancePeer } from './conformance-peer.js';
import { startHttpPeer, type McpPeer } from './mcp-peers.js';
import { createMcpClient, startMcpGateway } from './mcp-server-kit.js';

/** Pinned: later versions use fs.globSync and crash on Node 20. */
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.13';
const baseline = (name: string) => fileURLToPath(new URL(`./conformance/${name}`, import.meta.url));

/** Runs `conformance server --url <url> ...args` (the active suite unless a scenario is named); resolves to its output. */
function runConformance(url: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--yes', CONFORMANCE, 'server', '--url', url, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The suite's summary lines (the scenario logs before them are noise). */
const summary = (output: string) => output.slice(Math.max(0, output.indexOf('=== SUMMARY ===')));
const RUN_TIMEOUT = 180_000;

/**
 * The MCP conformance suite against the gateway's own server. The suite sends no credentials, so the gateway runs with
 * `inference.require_virtual_key: false` and its clients are allowed on all virtual keys. `/mcp` serves prefixed
 * names (`conf-test_simple_text`), which the `tools-call-*` scenarios cannot find; `/mcp/conf` serves the conformance
 * peer's tools under their own names, so the relayed results are checked too. Each baseline explains its entries.
 */
describe('MCP conformance (@modelcontextprotocol/conformance 0.1.13)', () => {
  let gw: TestApp;
  let peer: ConformancePeer;
  let other: McpPeer;

  beforeAll(async () => {
    [peer, other] = await Promise.all([startConformancePeer(), startHttpPeer()]);
    const started = await startMcpGateway({ inference: { require_virtual_key: false } });
    gw = started.gw;
    await createMcpClient(started.admin, {
      name: 'conf',
      connection_string: peer.url,
      allow_on_all_virtual_keys: true,
    });
    await createMcpClient(started.admin, {
      name: 'peer',
      connection_string: other.url,
      allow_on_all_virtual_keys: true,
    });
  });

  afterAll(async () => {
    await gw?.close();
    await Promise.all([peer?.close(), other?.close()]);
  });

  it(
    '/mcp/{client}: every failure is in the baseline',
    async () => {
      const run = await runConformance(
        `${gw.baseUrl}/mcp/conf`,
        '--expected-failures',
        baseline('expected-failures-client.yaml'),
      );
      console.log(summary(run.output));
      expect(run.code, run.output).toBe(0);
    },
    RUN_TIMEOUT,
  );

  it(
    '/mcp/{client}: json-schema-2020-12 (pending suite): input schemas are relayed as listed',
    async () => {
      const run = await runConformance(`${gw.baseUrl}/mcp/conf`, '--scenario', 'json-schema-2020-12');
      console.log(summary(run.output));
      expect(run.code, run.output).toBe(0);
    },
    RUN_TIMEOUT,
  );

  it(
    '/mcp: every failure is in the baseline',
    async () => {
      const run = await runConformance(
        `${gw.baseUrl}/mcp`,
        '--expected-failures',
        baseline('expected-failures-all.yaml'),
      );
      console.log(summary(run.output));
      expect(run.code, run.output).toBe(0);
    },
    RUN_TIMEOUT,
  );
});
