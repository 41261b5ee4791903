import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../src/core/config/config.loader.js';
import { configKeyId } from '../../src/modules/inference/catalog/config-providers.js';
import { ProviderCatalog } from '../../src/modules/inference/catalog/provider-catalog.service.js';
import { expectError, OSS_CONFIG, ossClient, sql, UUID } from '../governance/governance-test-kit.js';
import { MAIN_JS, spawnGateway } from '../helpers/gateway-process.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';

const PROVIDERS = '/api/providers';
const PLAIN_SECRET = `sk-config-${randomBytes(12).toString('hex')}`;
const ENV_NAME = `GW_TEST_CONFIG_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;
const ENV_SECRET = `sk-config-env-${randomBytes(12).toString('hex')}`;
const AZURE_SECRET = `azure-config-${randomBytes(12).toString('hex')}`;

/** A `providers:` block as a config file declares it (SecretValues as strings). */
const PROVIDERS_BLOCK = {
  openai: {
    base_url: 'http://127.0.0.1:9/v1',
    extra_headers: { 'OpenAI-Organization': 'org-config' },
    network_config: { default_request_timeout: '10s', max_retries: 1 },
    keys: [
      { name: 'primary', value: `env.${ENV_NAME}` },
      {
        name: 'backup',
        value: PLAIN_SECRET,
        weight: 2,
        models: ['gpt-4o'],
        aliases: { 'gpt-4o': { model_id: 'gpt-4o-2024-11-20' } },
      },
    ],
  },
  azure: {
    keys: [
      {
        name: 'eastus',
        value: AZURE_SECRET,
        azure_key_config: { endpoint: 'https://r.openai.azure.com', deployments: { 'gpt-4o': 'prod-4o' } },
      },
    ],
  },
  ollama: { base_url: 'http://127.0.0.1:11434', keys: [{ name: 'local' }] },
};

/** The `config:` lines a ConfigError carries, or the error itself when it is another failure. */
async function configProblems(providers: unknown): Promise<string[]> {
  try {
    const gw = await startTestApp({ config: { ...OSS_CONFIG, providers } });
    await gw.close();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('the gateway started with a bad providers block');
}

describe(`providers declared in the config file (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;

  beforeAll(async () => {
    process.env[ENV_NAME] = ENV_SECRET;
    gw = await startTestApp({ config: { ...OSS_CONFIG, providers: PROVIDERS_BLOCK } });
    api = ossClient(gw);
  });
  afterAll(async () => {
    delete process.env[ENV_NAME];
    await gw?.close();
  });

  it('shows them with source config, stable ids and redacted secrets', async () => {
    const list = await api.get(PROVIDERS);
    expect(list.status).toBe(200);
    expect(list.body.providers.map((p: any) => [p.provider, p.source, p.key_count])).toEqual([
      ['azure', 'config', 1],
      ['ollama', 'config', 1],
      ['openai', 'config', 2],
    ]);
    expect(list.body.providers.find((p: any) => p.provider === 'openai')).toMatchObject({
      base_url: 'http://127.0.0.1:9/v1',
      extra_headers: { 'OpenAI-Organization': { value: '<REDACTED>', ref: '', type: 'plain_text' } },
      network_config: {
        default_request_timeout: '10s',
        max_retries: 1,
        retry_backoff_initial: '500ms',
        retry_backoff_max: '5s',
      },
    });

    const keys = await api.get(`${PROVIDERS}/openai/keys`);
    expect(keys.body.count).toBe(2);
    const [primary, backup] = keys.body.keys;
    expect(primary).toMatchObject({
      id: configKeyId('openai', 'primary'),
      provider: 'openai',
      name: 'primary',
      value: { value: '<REDACTED>', ref: `env.${ENV_NAME}`, type: 'env' },
      weight: 1,
      models: ['*'],
      enabled: true,
      source: 'config',
    });
    expect(primary.id).toMatch(UUID);
    expect(backup).toMatchObject({
      id: configKeyId('openai', 'backup'),
      value: { value: '<REDACTED>', ref: '', type: 'plain_text' },
      weight: 2,
      models: ['gpt-4o'],
      aliases: { 'gpt-4o': { model_id: 'gpt-4o-2024-11-20' } },
      source: 'config',
    });
    expect((await api.get(`${PROVIDERS}/openai/keys/${backup.id}`)).body).toEqual(backup);
    const all = await api.get('/api/keys');
    expect(all.body.keys.map((k: any) => `${k.provider}/${k.name}`)).toEqual([
      'azure/eastus',
      'ollama/local',
      'openai/primary',
      'openai/backup',
    ]);
    expect(all.body.keys.find((k: any) => k.name === 'local').value).toBeUndefined();
    // Nothing of the file is written to the database.
    expect(await sql(gw, 'SELECT provider FROM providers')).toEqual([]);
  });

  it('feeds the snapshot with resolved secrets', async () => {
    const snapshot = await gw.app.get(ProviderCatalog).snapshot();
    const openai = snapshot.get('openai');
    expect(openai).toMatchObject({
      source: 'config',
      base_url: 'http://127.0.0.1:9/v1',
      extra_headers: { 'OpenAI-Organization': 'org-config' },
      network: { timeoutMs: 10_000, maxRetries: 1, backoffInitialMs: 500, backoffMaxMs: 5_000 },
    });
    expect(openai?.keys.map((k) => [k.name, k.credentials.value, k.weight])).toEqual([
      ['primary', ENV_SECRET, 1],
      ['backup', PLAIN_SECRET, 2],
    ]);
    expect(snapshot.get('azure')?.keys[0]?.credentials.azure).toEqual({
      endpoint: 'https://r.openai.azure.com',
      deployments: { 'gpt-4o': 'prod-4o' },
    });
    expect(snapshot.get('ollama')?.keys[0]?.credentials.value).toBe('');
  });

  it('refuses every change to them through the API with a 409', async () => {
    const openaiKey = configKeyId('openai', 'primary');
    expectError(await api.post(PROVIDERS, { provider: 'openai' }), 409, 'already_exists', 'provider');
    expectError(await api.put(`${PROVIDERS}/openai`, { base_url: null }), 409, 'config_managed');
    expectError(await api.delete(`${PROVIDERS}/openai`), 409, 'config_managed');
    expectError(await api.post(`${PROVIDERS}/openai/keys`, { name: 'extra', value: 'x' }), 409, 'config_managed');
    expectError(await api.put(`${PROVIDERS}/openai/keys/${openaiKey}`, { weight: 5 }), 409, 'config_managed');
    expectError(await api.delete(`${PROVIDERS}/openai/keys/${openaiKey}`), 409, 'config_managed');
    const refused = await api.put(`${PROVIDERS}/openai`, {});
    expect(refused.body.error.message).toMatch(/config file/);
    // Nothing changed.
    expect((await api.get(`${PROVIDERS}/openai/keys/${openaiKey}`)).body.weight).toBe(1);
    expect((await api.get(`${PROVIDERS}/openai`)).body.base_url).toBe('http://127.0.0.1:9/v1');
    // Other providers stay configurable beside them.
    expect((await api.post(PROVIDERS, { provider: 'groq' })).body.source).toBe('api');
    expect((await api.get(PROVIDERS)).body.count).toBe(4);
  });

  it('keeps the same key ids on another gateway reading the same file', async () => {
    const other = await startTestApp({ config: { ...OSS_CONFIG, providers: PROVIDERS_BLOCK } });
    try {
      const ids = (await ossClient(other).get('/api/keys')).body.keys.map((k: any) => k.id);
      expect(ids).toEqual(
        (await api.get('/api/keys')).body.keys.filter((k: any) => k.source === 'config').map((k: any) => k.id),
      );
    } finally {
      await other.close();
    }
  });

  it('never shows a config secret in a response or a log line', async () => {
    const texts = await Promise.all(
      [PROVIDERS, '/api/keys', `${PROVIDERS}/openai`, `${PROVIDERS}/azure/keys`].map(
        async (p) => (await api.get(p)).text,
      ),
    );
    const everything = `${texts.join('\n')}\n${gw.logs.text()}`;
    for (const value of [PLAIN_SECRET, ENV_SECRET, AZURE_SECRET]) expect(everything).not.toContain(value);
  });
});

describe(`the documented providers example (${RUN_MODE})`, () => {
  it('is a valid providers block', async () => {
    const text = readFileSync(join(import.meta.dirname, '../../docs/config.example.yaml'), 'utf8');
    const lines = text.split('\n');
    const start = lines.indexOf('# providers:');
    expect(start).toBeGreaterThan(0);
    const block = [lines[start]!];
    for (const line of lines.slice(start + 1)) {
      if (!line.startsWith('#   ')) break;
      block.push(line);
    }
    const { providers } = parseYaml(block.map((l) => l.slice(2)).join('\n')) as { providers: Record<string, unknown> };
    const gw = await startTestApp({ config: { ...OSS_CONFIG, providers } });
    try {
      const list = (await ossClient(gw).get(PROVIDERS)).body;
      expect(list.providers.map((p: any) => [p.provider, p.source, p.key_count])).toEqual([
        ['azure', 'config', 1],
        ['ollama', 'config', 1],
        ['openai', 'config', 1],
      ]);
    } finally {
      await gw.close();
    }
  });
});

describe(`a bad providers block stops the start (${RUN_MODE})`, () => {
  it('names each problem by its path, in the config loader’s form', async () => {
    const problems = await configProblems({
      openia: { keys: [] },
      openai: {
        network_config: { default_request_timeout: 'soon', retry_backoff_initial: '1m' },
        keys: [{ name: 'a' }, { name: 'b', value: 'x', weight: 0 }],
      },
      azure: { keys: [{ name: 'az', value: 'x' }] },
      groq: {
        keys: [
          { name: 'dup', value: 'x' },
          { name: 'dup', value: 'y' },
          { name: 'redacted', value: '<REDACTED>' },
        ],
      },
      mistral: { base_url: 'https://example.com/?q=1', colour: 'blue' },
      cohere: 'yes',
      anthropic: { network_config: { retry_backoff_initial: '10s', retry_backoff_max: '1s' } },
    });
    // One line per problem; within an entry the validator's order is its own.
    expect(problems).toHaveLength(9);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^providers\.openia: is not a provider id \(one of openai, azure, /),
        expect.stringMatching(/^providers\.openai\.network_config\.default_request_timeout: must be a duration/),
        expect.stringMatching(/^providers\.openai\.keys\[1\]\.weight: must be a positive number/),
        'providers.azure.keys[0].azure_key_config: is required for azure keys',
        'providers.groq.keys[1].name: "dup" is declared twice for groq (key names are unique per provider)',
        expect.stringMatching(/^providers\.groq\.keys\[2\]\.value: <REDACTED> can only be sent back/),
        'providers.mistral.colour: is not a known field',
        'providers.cohere: must be an object { base_url?, extra_headers?, network_config?, keys? }',
        'providers.anthropic.network_config.retry_backoff_initial: must not be longer than retry_backoff_max (1s)',
      ]),
    );
  });

  it('refuses a block that is not a map, and a missing key value', async () => {
    expect(await configProblems(['openai'])).toEqual(['providers: must be an object mapping provider ids to settings']);
    expect(await configProblems({ openai: { keys: [{ name: 'a' }] } })).toEqual([
      'providers.openai.keys[0].value: is required for openai keys',
    ]);
  });

  it.skipIf(!existsSync(MAIN_JS))('the process exits 2 with one config line per problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-config-providers-'));
    const file = join(dir, 'config.yaml');
    writeFileSync(
      file,
      [
        'providers:',
        '  openai:',
        '    keys:',
        '      - name: primary',
        '  azure:',
        '    keys:',
        '      - name: az',
        `        value: ${PLAIN_SECRET}`,
        '',
      ].join('\n'),
    );
    const gw = spawnGateway(['--config', file, '--app-dir', dir, '--port', '0'], {
      GATEWAY_SETUP_TOKEN: 'setup-token-123456',
    });
    expect((await gw.exit).code).toBe(2);
    expect(gw.stderr().trim().split('\n')).toEqual([
      'config: providers.openai.keys[0].value: is required for openai keys',
      'config: providers.azure.keys[0].azure_key_config: is required for azure keys',
    ]);
    expect(gw.stderr()).not.toContain(PLAIN_SECRET);
  });
});
