import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';
import { baseline, CONFORMANCE_VERSION, runConformance, summary } from './conformance-kit.js';
import { startHttpPeer, type McpPeer } from './mcp-peers.js';
import { createMcpClient, startMcpGateway } from './mcp-server-kit.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

const RUN_TIMEOUT = 240_000;

/**
 * The MCP conformance kit's server scenarios: straight at the reference upstream (every scenario passes), then through
 * the gateway. The kit sends no credentials, so the gateway runs with `inference.require_virtual_key: false` and its
 * clients are allowed on all virtual keys. `/mcp/conf` relays the reference server under its own names, so every
 * scenario must pass there too; `/mcp` namespaces names (`conf-test_simple_text`), and the scenarios that call a tool
 * or a prompt by its upstream name are listed, with the reason, in `conformance/expected-failures-all.yaml`.
 */
describe(`MCP conformance (@modelcontextprotocol/conformance ${CONFORMANCE_VERSION})`, () => {
  let gw: TestApp;
  let reference: ReferenceServer;
  let other: McpPeer;

  beforeAll(async () => {
    [reference, other] = await Promise.all([startReferenceServer(), startHttpPeer()]);
    const started = await startMcpGateway({ inference: { require_virtual_key: false } });
    gw = started.gw;
    await createMcpClient(started.admin, {
      name: 'conf',
      connection_string: reference.url,
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
    await Promise.all([reference?.close(), other?.close()]);
  });

  it(
    'the reference upstream passes every scenario when the kit runs straight at it',
    async () => {
      const run = await runConformance(reference.url);
      console.log(summary(run.output));
      expect(run.code, run.output).toBe(0);
      expect(summary(run.output)).toMatch(/Total: \d+ passed, 0 failed/);
    },
    RUN_TIMEOUT,
  );

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
