import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderCatalog } from '../../src/modules/inference/catalog/provider-catalog.service.js';
import type { ProviderSnapshot } from '../../src/modules/inference/catalog/provider-snapshot.js';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import { expectError, OSS_CONFIG, ossClient, RFC3339_UTC, sql, UUID } from '../governance/governance-test-kit.js';
import { freePort } from '../helpers/gateway-process.js';
import { expectGatewayError } from '../helpers/gateway-error.js';
import type { HttpClient, HttpResult } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE, TEST_REDIS_URL } from '../helpers/test-env.js';

const PROVIDERS = '/api/providers';
const REDACTED_PLAIN = { value: '<REDACTED>', ref: '', type: 'plain_text' };
/** Secrets sent in this suite: none may ever come back in a response or reach a log line. */
const secret = (label: string) => `sk-${label}-${randomBytes(12).toString('hex')}`;
const ENV_NAME = `GW_TEST_PROVIDER_KEY_${randomBytes(4).toString('hex').toUpperCase()}`;
const MISSING_ENV = `GW_TEST_MISSING_${randomBytes(4).toString('hex').toUpperCase()}`;

/** The snapshot as the request path sees it (awaited only when it has to be rebuilt). */
async function snapshotOf(gw: TestApp): Promise<ProviderSnapshot> {
  return gw.app.get(ProviderCatalog).snapshot();
}

describe(`providers and keys (${RUN_MODE})`, () => {
  let gw: TestApp;
  let api: HttpClient;
  const sentSecrets: string[] = [];
  const responses: string[] = [];
  const record = <T extends HttpResult>(res: T): T => {
    responses.push(res.text);
    return res;
  };
  const call = {
    get: async (path: string) => record(await api.get(path)),
    post: async (path: string, body?: unknown) => record(await api.post(path, body)),
    put: async (path: string, body?: unknown) => record(await api.put(path, body)),
    delete: async (path: string) => record(await api.delete(path)),
  };
  const addProvider = async (body: Record<string, unknown>) => {
    const res = await call.post(PROVIDERS, body);
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const addKey = async (provider: string, body: Record<string, unknown>) => {
    const res = await call.post(`${PROVIDERS}/${provider}/keys`, body);
    expect(res.status, res.text).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    const envValue = secret('env');
    process.env[ENV_NAME] = envValue;
    sentSecrets.push(envValue);
    gw = await startTestApp({ config: OSS_CONFIG });
    api = ossClient(gw);
  });
  afterAll(async () => {
    delete process.env[ENV_NAME];
    await gw?.close();
  });

  it('creates a provider with defaults filled, redacted headers and source api; lists and gets it', async () => {
    expect((await call.get(PROVIDERS)).body).toEqual({ providers: [], count: 0 });
    expect((await call.get('/api/models')).body).toEqual({ models: [], count: 0, key_statuses: [] });
    const header = secret('header');
    sentSecrets.push(header);
    const created = await addProvider({
      provider: 'openai',
      base_url: 'https://proxy.example.com/v1/',
      extra_headers: { 'OpenAI-Organization': header, 'X-Ref': 'env.SOME_ORG' },
      network_config: { default_request_timeout: '45s', max_retries: 2 },
    });
    expect(created).toEqual({
      provider: 'openai',
      base_url: 'https://proxy.example.com/v1',
      extra_headers: {
        'OpenAI-Organization': REDACTED_PLAIN,
        'X-Ref': { value: '<REDACTED>', ref: 'env.SOME_ORG', type: 'env' },
      },
      network_config: {
        default_request_timeout: '45s',
        max_retries: 2,
        retry_backoff_initial: '500ms',
        retry_backoff_max: '5s',
      },
      source: 'api',
      key_count: 0,
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const list = await call.get(PROVIDERS);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ providers: [created], count: 1 });
    const got = await call.get(`${PROVIDERS}/openai`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created);

    const stored = await sql(gw, 'SELECT extra_headers, network_config FROM providers WHERE provider = $1', ['openai']);
    expect(JSON.stringify(stored)).not.toContain(header);
    expect(stored[0].extra_headers['X-Ref']).toEqual({ type: 'env', ref: 'env.SOME_ORG' });
    expect(stored[0].extra_headers['OpenAI-Organization'].ciphertext).toMatch(/^v1:/);

    const snapshot = (await snapshotOf(gw)).get('openai');
    expect(snapshot).toMatchObject({
      id: 'openai',
      base_url: 'https://proxy.example.com/v1',
      source: 'api',
      network: { timeoutMs: 45_000, maxRetries: 2, backoffInitialMs: 500, backoffMaxMs: 5_000 },
      keys: [],
    });
    // The header's env reference does not resolve: nothing to send, and no key to mark.
    expect(snapshot?.extra_headers).toEqual({ 'OpenAI-Organization': header });
  });

  it('refuses duplicates, unknown ids and bad settings, each naming the field', async () => {
    const dup = await call.post(PROVIDERS, { provider: 'openai' });
    expectError(dup, 409, 'already_exists', 'provider');
    expectError(await call.post(PROVIDERS, { provider: 'openai-ish' }), 400, 'validation_failed', 'provider');
    expectError(await call.post(PROVIDERS, {}), 400, 'validation_failed', 'provider');
    expectError(await call.post(PROVIDERS), 400, 'validation_failed', 'provider');
    expectError(await call.post(`${PROVIDERS}/openai/keys`), 400, 'validation_failed', 'name');
    // A PUT without a body changes nothing.
    const unchanged = await call.put(`${PROVIDERS}/openai`);
    expect(unchanged.status, unchanged.text).toBe(200);
    expect(unchanged.body.base_url).toBe('https://proxy.example.com/v1');
    expectError(await call.get(`${PROVIDERS}/not-a-provider`), 400, 'validation_failed', 'provider');
    expectError(await call.put(`${PROVIDERS}/not-a-provider`, {}), 400, 'validation_failed', 'provider');
    expectError(await call.delete(`${PROVIDERS}/not-a-provider`), 400, 'validation_failed', 'provider');
    expectError(await call.get(`${PROVIDERS}/not-a-provider/keys`), 400, 'validation_failed', 'provider');
    const notConfigured = await call.get(`${PROVIDERS}/groq`);
    expectError(notConfigured, 404, 'provider_not_found');
    expectGatewayError(notConfigured.body, 404, 'provider_not_found');
    expectError(await call.put(`${PROVIDERS}/groq`, {}), 404, 'provider_not_found');
    expectError(await call.delete(`${PROVIDERS}/groq`), 404, 'provider_not_found');

    const bad: Array<[Record<string, unknown>, string]> = [
      [{ network_config: { default_request_timeout: 'soon' } }, 'network_config.default_request_timeout'],
      [{ network_config: { default_request_timeout: '0s' } }, 'network_config.default_request_timeout'],
      [{ network_config: { default_request_timeout: '2h' } }, 'network_config.default_request_timeout'],
      [{ network_config: { max_retries: -1 } }, 'network_config.max_retries'],
      [{ network_config: { max_retries: 1.5 } }, 'network_config.max_retries'],
      [{ network_config: { retry_backoff_initial: '10s' } }, 'network_config.retry_backoff_initial'],
      [{ network_config: { retry_backoff_max: '1h' } }, 'network_config.retry_backoff_max'],
      [{ network_config: { unknown: 1 } }, 'network_config.unknown'],
      [{ base_url: 'ftp://example.com' }, 'base_url'],
      [{ base_url: 'https://example.com/v1?x=1' }, 'base_url'],
      [{ extra_headers: { Host: 'example.com' } }, 'extra_headers.Host'],
      [{ extra_headers: { 'Bad Header': 'x' } }, 'extra_headers.Bad Header'],
      [{ extra_headers: { 'X-New': '<REDACTED>' } }, 'extra_headers.X-New'],
      [{ extra_headers: { 'X-Line': 'a\nb' } }, 'extra_headers.X-Line'],
    ];
    for (const [body, param] of bad) {
      const res = await call.put(`${PROVIDERS}/openai`, body);
      expect(res.body.error?.param, JSON.stringify(body)).toBe(param);
      expectError(res, 400, 'validation_failed', param);
    }
    // The backoff ordering is checked against the stored values too.
    expect((await call.put(`${PROVIDERS}/openai`, { network_config: { retry_backoff_max: '1s' } })).status).toBe(200);
    expectError(
      await call.put(`${PROVIDERS}/openai`, { network_config: { retry_backoff_initial: '2s' } }),
      400,
      'validation_failed',
      'network_config.retry_backoff_initial',
    );
    // Nothing of the refused requests was written.
    const after = (await call.get(`${PROVIDERS}/openai`)).body;
    expect(after.network_config).toEqual({
      default_request_timeout: '45s',
      max_retries: 2,
      retry_backoff_initial: '500ms',
      retry_backoff_max: '1s',
    });
    expect(Object.keys(after.extra_headers).sort()).toEqual(['OpenAI-Organization', 'X-Ref']);
  });

  it('PUT changes the fields it carries; <REDACTED> keeps a header; null clears base_url', async () => {
    const before = (await call.get(`${PROVIDERS}/openai`)).body;
    const header = (await snapshotOf(gw)).get('openai')?.extra_headers['OpenAI-Organization'];
    const res = await call.put(`${PROVIDERS}/openai`, {
      extra_headers: { 'openai-organization': '<REDACTED>', 'X-Extra': 'plain-extra' },
      network_config: { max_retries: 3 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      base_url: before.base_url,
      extra_headers: { 'openai-organization': REDACTED_PLAIN, 'X-Extra': REDACTED_PLAIN },
      network_config: { ...before.network_config, max_retries: 3 },
      created_at: before.created_at,
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    // The change is in the snapshot as soon as the call returns.
    const snapshot = (await snapshotOf(gw)).get('openai');
    expect(snapshot?.extra_headers).toEqual({ 'openai-organization': header, 'X-Extra': 'plain-extra' });
    expect(snapshot?.network.maxRetries).toBe(3);

    const cleared = await call.put(`${PROVIDERS}/openai`, { base_url: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.base_url).toBeUndefined();
    expect((await snapshotOf(gw)).get('openai')?.base_url).toBeUndefined();
  });

  it('stores a key encrypted at rest, shows it redacted, resolves it in the snapshot', async () => {
    const value = secret('openai');
    sentSecrets.push(value);
    const key = await addKey('openai', {
      name: 'primary',
      value,
      aliases: { 'gpt-4o': { model_id: 'gpt-4o-2024-11-20', model_family: 'gpt-4o' } },
    });
    expect(key).toEqual({
      id: expect.stringMatching(UUID),
      provider: 'openai',
      name: 'primary',
      value: REDACTED_PLAIN,
      weight: 1,
      models: ['*'],
      blacklisted_models: [],
      aliases: { 'gpt-4o': { model_id: 'gpt-4o-2024-11-20', model_family: 'gpt-4o' } },
      enabled: true,
      source: 'api',
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const rows = await sql(gw, 'SELECT * FROM provider_keys WHERE id = $1', [key.id]);
    expect(rows[0].value.type).toBe('plain_text');
    expect(rows[0].value.ciphertext).toMatch(/^v1:/);
    expect(JSON.stringify(await sql(gw, 'SELECT * FROM provider_keys'))).not.toContain(value);

    const configured = (await snapshotOf(gw)).get('openai')?.keys;
    expect(configured).toEqual([
      {
        id: key.id,
        name: 'primary',
        weight: 1,
        models: ['*'],
        blacklisted_models: [],
        aliases: { 'gpt-4o': { model_id: 'gpt-4o-2024-11-20', model_family: 'gpt-4o' } },
        enabled: true,
        credentials: { id: key.id, name: 'primary', value },
      },
    ]);

    expect((await call.get(`${PROVIDERS}/openai/keys/${key.id}`)).body).toEqual(key);
    const list = await call.get(`${PROVIDERS}/openai/keys`);
    expect(list.body).toEqual({ keys: [key], count: 1 });
    expect((await call.get(`${PROVIDERS}/openai`)).body.key_count).toBe(1);
  });

  it('keeps env. and vault. references as references; an unresolvable one marks the key unusable', async () => {
    const envKey = await addKey('openai', { name: 'from-env', value: `env.${ENV_NAME}`, weight: 2.5 });
    expect(envKey.value).toEqual({ value: '<REDACTED>', ref: `env.${ENV_NAME}`, type: 'env' });
    expect(envKey.weight).toBe(2.5);
    const missing = await addKey('openai', { name: 'missing-env', value: { ref: `env.${MISSING_ENV}`, type: 'env' } });
    const vault = await addKey('openai', { name: 'from-vault', value: 'vault.secret/openai#key', enabled: false });
    const rows = await sql(gw, 'SELECT id, value FROM provider_keys WHERE id = ANY($1)', [
      [envKey.id, missing.id, vault.id],
    ]);
    const byId = new Map(rows.map((r: any) => [r.id, r.value]));
    expect(byId.get(envKey.id)).toEqual({ type: 'env', ref: `env.${ENV_NAME}` });
    expect(byId.get(vault.id)).toEqual({ type: 'vault', ref: 'vault.secret/openai#key' });

    const keys = (await snapshotOf(gw)).get('openai')?.keys ?? [];
    const find = (name: string) => keys.find((k) => k.name === name);
    expect(find('from-env')?.credentials.value).toBe(process.env[ENV_NAME]);
    expect(find('from-env')?.unusable).toBeUndefined();
    expect(find('missing-env')?.unusable).toMatch(new RegExp(`env\\.${MISSING_ENV}.*not set`));
    expect(find('missing-env')?.credentials.value).toBe('');
    expect(find('from-vault')?.unusable).toMatch(/vault/);
    expect(find('from-vault')?.enabled).toBe(false);
  });

  it('PUT on a key: <REDACTED> keeps the value, a new value replaces it, names stay unique', async () => {
    const key = (await call.get(`${PROVIDERS}/openai/keys`)).body.keys.find((k: any) => k.name === 'primary');
    const before = (await snapshotOf(gw)).get('openai')?.keys.find((k) => k.id === key.id)?.credentials.value;
    const kept = await call.put(`${PROVIDERS}/openai/keys/${key.id}`, {
      value: '<REDACTED>',
      models: ['gpt-4o', 'gpt-4o-mini'],
      blacklisted_models: ['gpt-4o-mini'],
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body).toMatchObject({
      id: key.id,
      name: 'primary',
      value: REDACTED_PLAIN,
      models: ['gpt-4o', 'gpt-4o-mini'],
      blacklisted_models: ['gpt-4o-mini'],
      aliases: key.aliases,
      created_at: key.created_at,
    });
    let configured = (await snapshotOf(gw)).get('openai')?.keys.find((k) => k.id === key.id);
    expect(configured?.credentials.value).toBe(before);
    expect(configured?.models).toEqual(['gpt-4o', 'gpt-4o-mini']);

    const replacement = secret('rotated');
    sentSecrets.push(replacement);
    const replaced = await call.put(`${PROVIDERS}/openai/keys/${key.id}`, { value: replacement, enabled: false });
    expect(replaced.status).toBe(200);
    expect(replaced.body.enabled).toBe(false);
    configured = (await snapshotOf(gw)).get('openai')?.keys.find((k) => k.id === key.id);
    expect(configured?.credentials.value).toBe(replacement);
    expect(configured?.enabled).toBe(false);

    expectError(
      await call.post(`${PROVIDERS}/openai/keys`, { name: 'primary', value: 'x' }),
      409,
      'already_exists',
      'name',
    );
    expectError(
      await call.put(`${PROVIDERS}/openai/keys/${key.id}`, { name: 'from-env' }),
      409,
      'already_exists',
      'name',
    );
    const renamed = await call.put(`${PROVIDERS}/openai/keys/${key.id}`, { name: 'renamed', enabled: true });
    expect(renamed.body).toMatchObject({ name: 'renamed', enabled: true });
  });

  it('refuses bad keys, naming the field, and answers 404 for keys and providers that do not exist', async () => {
    const keys = `${PROVIDERS}/openai/keys`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ value: 'x' }, 'name'],
      [{ name: '', value: 'x' }, 'name'],
      [{ name: 'no-value' }, 'value'],
      [{ name: 'redacted', value: '<REDACTED>' }, 'value'],
      [{ name: 'bad-ref', value: 'env.1BAD' }, 'value'],
      [{ name: 'w0', value: 'x', weight: 0 }, 'weight'],
      [{ name: 'w-', value: 'x', weight: -1 }, 'weight'],
      [{ name: 'w-big', value: 'x', weight: 1e9 }, 'weight'],
      [{ name: 'models', value: 'x', models: ['gpt-4o', ''] }, 'models[1]'],
      [{ name: 'models', value: 'x', models: 'gpt-4o' }, 'models'],
      [{ name: 'bl', value: 'x', blacklisted_models: [1] }, 'blacklisted_models[0]'],
      [{ name: 'alias', value: 'x', aliases: { 'gpt-4o': {} } }, 'aliases.gpt-4o.model_id'],
      [{ name: 'alias', value: 'x', aliases: { 'gpt-4o': { model_id: 'm', extra: 1 } } }, 'aliases.gpt-4o.extra'],
      [{ name: 'alias', value: 'x', aliases: { 'gpt-4o': 'm' } }, 'aliases.gpt-4o'],
      [{ name: 'az', value: 'x', azure_key_config: { endpoint: 'https://a.example.com' } }, 'azure_key_config'],
      [{ name: 'bd', value: 'x', bedrock_key_config: { region: 'us-east-1' } }, 'bedrock_key_config'],
      [
        { name: 'vx', value: 'x', vertex_key_config: { project_id: 'p', region: 'r', auth_credentials: '{}' } },
        'vertex_key_config',
      ],
      [{ name: 'unknown', value: 'x', colour: 'blue' }, 'colour'],
      [{ name: 'enabled', value: 'x', enabled: null }, 'enabled'],
    ];
    for (const [body, param] of cases) {
      const res = await call.post(keys, body);
      expect(res.body.error?.param, JSON.stringify(body)).toBe(param);
      expectError(res, 400, 'validation_failed', param);
    }
    const missingId = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';
    expectError(await call.get(`${keys}/${missingId}`), 404, 'provider_key_not_found');
    expectError(await call.get(`${keys}/not-a-uuid`), 404, 'provider_key_not_found');
    expectError(await call.put(`${keys}/${missingId}`, { weight: 2 }), 404, 'provider_key_not_found');
    expectError(await call.delete(`${keys}/not-a-uuid`), 404, 'provider_key_not_found');
    expectError(await call.get(`${PROVIDERS}/groq/keys`), 404, 'provider_not_found');
    expectError(await call.post(`${PROVIDERS}/groq/keys`, { name: 'k', value: 'x' }), 404, 'provider_not_found');
    expectError(await call.get(`${PROVIDERS}/groq/keys/${missingId}`), 404, 'provider_not_found');
    // A key is reached through its own provider only.
    await addProvider({ provider: 'groq' });
    const openaiKey = (await call.get(keys)).body.keys[0];
    expectError(await call.get(`${PROVIDERS}/groq/keys/${openaiKey.id}`), 404, 'provider_key_not_found');
    expectError(await call.delete(`${PROVIDERS}/groq/keys/${openaiKey.id}`), 404, 'provider_key_not_found');
    const count = await sql(gw, 'SELECT count(*)::int AS n FROM provider_keys WHERE provider = $1', ['openai']);
    expect(count[0].n).toBe(4);
  });

  it('provider-specific keys: Azure deployments, Bedrock access keys, Vertex service accounts, keyless self-hosted', async () => {
    await addProvider({ provider: 'azure' });
    expectError(
      await call.post(`${PROVIDERS}/azure/keys`, { name: 'az', value: 'x' }),
      400,
      'validation_failed',
      'azure_key_config',
    );
    expectError(
      await call.post(`${PROVIDERS}/azure/keys`, {
        name: 'az',
        value: 'x',
        azure_key_config: { endpoint: 'not a url' },
      }),
      400,
      'validation_failed',
      'azure_key_config.endpoint',
    );
    expectError(
      await call.post(`${PROVIDERS}/azure/keys`, {
        name: 'az',
        value: 'x',
        azure_key_config: { endpoint: 'https://r.openai.azure.com', deployments: { 'gpt-4o': '' } },
      }),
      400,
      'validation_failed',
      'azure_key_config.deployments.gpt-4o',
    );
    const azureValue = secret('azure');
    sentSecrets.push(azureValue);
    const azure = await addKey('azure', {
      name: 'az',
      value: azureValue,
      azure_key_config: {
        endpoint: 'https://r.openai.azure.com/',
        api_version: '2024-10-21',
        deployments: { 'gpt-4o': 'gpt-4o-prod' },
      },
    });
    expect(azure.azure_key_config).toEqual({
      endpoint: 'https://r.openai.azure.com',
      api_version: '2024-10-21',
      deployments: { 'gpt-4o': 'gpt-4o-prod' },
    });
    expect((await snapshotOf(gw)).get('azure')?.keys[0]?.credentials).toEqual({
      id: azure.id,
      name: 'az',
      value: azureValue,
      azure: {
        endpoint: 'https://r.openai.azure.com',
        api_version: '2024-10-21',
        deployments: { 'gpt-4o': 'gpt-4o-prod' },
      },
    });

    await addProvider({ provider: 'bedrock' });
    const bedrockKeys = `${PROVIDERS}/bedrock/keys`;
    expectError(
      await call.post(bedrockKeys, { name: 'b', bedrock_key_config: { region: 'us-east-1' } }),
      400,
      'validation_failed',
      'value',
    );
    expectError(
      await call.post(bedrockKeys, { name: 'b', bedrock_key_config: { region: 'us-east-1', access_key: 'AKIA' } }),
      400,
      'validation_failed',
      'bedrock_key_config.secret_key',
    );
    expectError(
      await call.post(bedrockKeys, { name: 'b', bedrock_key_config: { region: 'us-east-1', secret_key: 's' } }),
      400,
      'validation_failed',
      'bedrock_key_config.access_key',
    );
    expectError(
      await call.post(bedrockKeys, { name: 'b', value: 'x', bedrock_key_config: { region: 'US EAST' } }),
      400,
      'validation_failed',
      'bedrock_key_config.region',
    );
    const secretKey = secret('aws');
    sentSecrets.push(secretKey);
    const bedrock = await addKey('bedrock', {
      name: 'iam',
      bedrock_key_config: { region: 'us-east-1', access_key: 'env.AWS_ACCESS_KEY_ID', secret_key: secretKey },
    });
    expect(bedrock.value).toBeUndefined();
    expect(bedrock.bedrock_key_config).toEqual({
      region: 'us-east-1',
      access_key: { value: '<REDACTED>', ref: 'env.AWS_ACCESS_KEY_ID', type: 'env' },
      secret_key: REDACTED_PLAIN,
    });
    // A bearer API key needs no access keys; <REDACTED> in the block keeps the stored secret.
    const bearerKey = await addKey('bedrock', {
      name: 'bearer',
      value: 'x',
      bedrock_key_config: { region: 'eu-west-1' },
    });
    expect(bearerKey.value).toEqual(REDACTED_PLAIN);
    const kept = await call.put(`${bedrockKeys}/${bedrock.id}`, {
      bedrock_key_config: { region: 'us-west-2', access_key: '<REDACTED>', secret_key: '<REDACTED>' },
    });
    expect(kept.status, kept.text).toBe(200);
    const stored = await sql(gw, 'SELECT bedrock_key_config FROM provider_keys WHERE id = $1', [bedrock.id]);
    expect(stored[0].bedrock_key_config.region).toBe('us-west-2');
    expect(stored[0].bedrock_key_config.access_key).toEqual({ type: 'env', ref: 'env.AWS_ACCESS_KEY_ID' });
    expect(stored[0].bedrock_key_config.secret_key.ciphertext).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain(secretKey);

    await addProvider({ provider: 'vertex' });
    const vertexKeys = `${PROVIDERS}/vertex/keys`;
    expectError(await call.post(vertexKeys, { name: 'v', value: 'x' }), 400, 'validation_failed', 'vertex_key_config');
    expectError(
      await call.post(vertexKeys, {
        name: 'v',
        vertex_key_config: { project_id: 'p', region: 'us-central1', auth_credentials: 'not json' },
      }),
      400,
      'validation_failed',
      'vertex_key_config.auth_credentials',
    );
    expectError(
      await call.post(vertexKeys, { name: 'v', vertex_key_config: { project_id: 'p', region: 'us-central1' } }),
      400,
      'validation_failed',
      'vertex_key_config.auth_credentials',
    );
    const serviceAccount = JSON.stringify({ type: 'service_account', private_key: secret('pem') });
    sentSecrets.push(serviceAccount, JSON.parse(serviceAccount).private_key);
    const vertex = await addKey('vertex', {
      name: 'sa',
      vertex_key_config: { project_id: 'my-project', region: 'us-central1', auth_credentials: serviceAccount },
    });
    expect(vertex.vertex_key_config).toEqual({
      project_id: 'my-project',
      region: 'us-central1',
      auth_credentials: REDACTED_PLAIN,
    });

    await addProvider({ provider: 'vllm', base_url: 'http://127.0.0.1:8000/v1' });
    const local = await addKey('vllm', { name: 'local' });
    expect(local.value).toBeUndefined();
    expect((await snapshotOf(gw)).get('vllm')?.keys[0]).toMatchObject({
      name: 'local',
      credentials: { value: '' },
    });
    expect((await snapshotOf(gw)).get('vllm')?.keys[0]?.unusable).toBeUndefined();
  });

  it('GET /api/keys lists every key of every provider, redacted, each with its provider', async () => {
    const res = await call.get('/api/keys');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(res.body.keys.length);
    const byProvider = new Map<string, number>();
    for (const k of res.body.keys) byProvider.set(k.provider, (byProvider.get(k.provider) ?? 0) + 1);
    expect(Object.fromEntries(byProvider)).toEqual({ azure: 1, bedrock: 2, openai: 4, vertex: 1, vllm: 1 });
    for (const k of res.body.keys) {
      expect(k.id).toMatch(UUID);
      if (k.value) expect(k.value.value).toBe('<REDACTED>');
    }
    const providers = (await call.get(PROVIDERS)).body;
    expect(providers.providers.map((p: any) => [p.provider, p.key_count])).toEqual([
      ['azure', 1],
      ['bedrock', 2],
      ['groq', 0],
      ['openai', 4],
      ['vertex', 1],
      ['vllm', 1],
    ]);
  });

  it('GET /api/models reports each failing key in key_statuses and never fails the call', async () => {
    expectError(await call.get('/api/models?provider=nope'), 400, 'validation_failed', 'provider');
    // Runway has no model-listing endpoint: its adapter refuses the listing (400 unsupported_operation).
    const unlisted = 'runway';
    expect(adapterFor(unlisted)).toBeDefined();
    await addProvider({ provider: unlisted });
    const key = await addKey(unlisted, { name: 'k', value: 'x' });
    await addKey(unlisted, { name: 'off', value: 'x', enabled: false });
    const res = await call.get(`/api/models?provider=${unlisted}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.models).toEqual([]);
    expect(res.body.count).toBe(0);
    // The disabled key is not asked.
    expect(res.body.key_statuses).toHaveLength(1);
    expect(res.body.key_statuses[0]).toMatchObject({
      key_id: key.id,
      provider: unlisted,
      status: 'list_models_failed',
    });
    expectGatewayError(res.body.key_statuses[0].error, 400, 'unsupported_operation');

    // Every enabled key is asked; the unresolvable ones fail on their secret, before any adapter is needed. (The
    // others point at a closed loopback port: nothing leaves the machine once an adapter is registered.)
    await call.put(`${PROVIDERS}/openai`, { base_url: `http://127.0.0.1:${await freePort()}/v1` });
    const all = await call.get('/api/models?provider=openai');
    expect(all.status).toBe(200);
    const statuses = new Map<string, any>(all.body.key_statuses.map((s: any) => [s.key_id, s]));
    const openaiKeys = (await call.get(`${PROVIDERS}/openai/keys`)).body.keys;
    expect(all.body.key_statuses).toHaveLength(openaiKeys.filter((k: any) => k.enabled).length);
    expect(new Set(all.body.key_statuses.map((s: any) => s.provider))).toEqual(new Set(['openai']));
    const missing = openaiKeys.find((k: any) => k.name === 'missing-env');
    expect(statuses.get(missing.id).status).toBe('list_models_failed');
    expectGatewayError(statuses.get(missing.id).error, 502, 'secret_unresolved');
    expect(statuses.get(missing.id).error.error.message).toContain(`env.${MISSING_ENV}`);
    const vault = openaiKeys.find((k: any) => k.name === 'from-vault');
    expect(statuses.has(vault.id)).toBe(false);
    expect(all.body.count).toBe(all.body.models.length);
  });

  it('GET /api/models: an unreachable provider fails its key only', async () => {
    const provider = 'groq';
    const port = await freePort();
    const exists = (await call.get(`${PROVIDERS}/${provider}`)).status === 200;
    if (exists) await call.put(`${PROVIDERS}/${provider}`, { base_url: `http://127.0.0.1:${port}/v1` });
    else await addProvider({ provider, base_url: `http://127.0.0.1:${port}/v1` });
    const key = await addKey(provider, { name: 'unreachable', value: 'x', models: ['*'] });
    const res = await call.get(`/api/models?provider=${provider}`);
    expect(res.status).toBe(200);
    const status = res.body.key_statuses.find((s: any) => s.key_id === key.id);
    expect(status.status).toBe('list_models_failed');
    expectGatewayError(status.error, 502, 'upstream_error');
    expect(status.error.extra_fields.error_type).toBe('provider_connection_failed');
  });

  it('snapshot() is synchronous once built and reflects each committed change at once', async () => {
    const catalog = gw.app.get(ProviderCatalog);
    const built = await catalog.snapshot();
    const again = catalog.snapshot();
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toBe(built);

    await addProvider({ provider: 'mistral' });
    const rebuilt = catalog.snapshot();
    expect(rebuilt).toBeInstanceOf(Promise);
    expect((await rebuilt).get('mistral')?.keys).toEqual([]);
    const key = await addKey('mistral', { name: 'm', value: 'mistral-value' });
    expect((await catalog.snapshot()).get('mistral')?.keys.map((k) => k.id)).toEqual([key.id]);
    await call.put(`${PROVIDERS}/mistral/keys/${key.id}`, { weight: 7 });
    expect((await catalog.snapshot()).get('mistral')?.keys[0]?.weight).toBe(7);
    const deletedKey = await call.delete(`${PROVIDERS}/mistral/keys/${key.id}`);
    expect(deletedKey.body).toEqual({ message: expect.any(String) });
    expect((await catalog.snapshot()).get('mistral')?.keys).toEqual([]);
    expectError(await call.get(`${PROVIDERS}/mistral/keys/${key.id}`), 404, 'provider_key_not_found');
  });

  it('past its 60 s lifetime the snapshot is rebuilt in the background while requests keep the previous one', async () => {
    const catalog = gw.app.get(ProviderCatalog);
    const current = await catalog.snapshot();
    expect(current.get('groq')?.network.maxRetries).toBe(0);
    // A change the catalog was never told about (as if its message were lost): only the lifetime picks it up.
    await sql(
      gw,
      `UPDATE providers SET network_config = jsonb_set(network_config, '{max_retries}', '4') WHERE provider = 'groq'`,
    );
    expect(catalog.snapshot()).toBe(current);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      // Expired: still answered synchronously, with the previous snapshot, while the rebuild runs.
      expect(catalog.snapshot()).toBe(current);
      let latest: ProviderSnapshot | Promise<ProviderSnapshot> = current;
      // Up to 10 s of real time for the rebuild (a loaded machine, a Postgres round trip).
      for (let i = 0; i < 1000 && latest === current; i++) {
        await new Promise((r) => setTimeout(r, 10));
        latest = catalog.snapshot();
      }
      expect(latest).not.toBeInstanceOf(Promise);
      expect((latest as ProviderSnapshot).get('groq')?.network.maxRetries).toBe(4);
    } finally {
      vi.useRealTimers();
    }
    // A change, unlike an expiry, is never answered from the previous snapshot.
    await call.put(`${PROVIDERS}/groq`, { network_config: { max_retries: 1 } });
    const changed = catalog.snapshot();
    expect(changed).toBeInstanceOf(Promise);
    expect((await changed).get('groq')?.network.maxRetries).toBe(1);
  });

  it('DELETE removes the provider and its keys in one go', async () => {
    const keyIds = (await call.get(`${PROVIDERS}/openai/keys`)).body.keys.map((k: any) => k.id);
    expect(keyIds.length).toBeGreaterThan(0);
    const res = await call.delete(`${PROVIDERS}/openai`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(await sql(gw, 'SELECT id FROM provider_keys WHERE provider = $1', ['openai'])).toEqual([]);
    expectError(await call.get(`${PROVIDERS}/openai`), 404, 'provider_not_found');
    expectError(await call.get(`${PROVIDERS}/openai/keys`), 404, 'provider_not_found');
    expect((await snapshotOf(gw)).get('openai')).toBeUndefined();
    expect((await call.get('/api/keys')).body.keys.some((k: any) => keyIds.includes(k.id))).toBe(false);
    // The id can be configured afresh.
    expect((await addProvider({ provider: 'openai' })).key_count).toBe(0);
  });

  it('never shows a secret in a response or a log line', () => {
    expect(sentSecrets.length).toBeGreaterThan(5);
    const everything = `${responses.join('\n')}\n${gw.logs.text()}`;
    for (const value of sentSecrets) expect(everything).not.toContain(value);
  });
});

describe.skipIf(!TEST_REDIS_URL || RUN_MODE !== 'postgres')(`provider snapshot across replicas (${RUN_MODE})`, () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ config: OSS_CONFIG, keepDatabase: true });
    second = await startTestApp({
      // Replicas sharing a database share the key that seals its secrets.
      config: { ...OSS_CONFIG, encryption_key: first.config.encryption_key },
      databaseUrl: first.databaseUrl,
      redisPrefix: first.config.redis_prefix,
    });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('a change on one replica is in the other replica’s snapshot without a restart', async () => {
    const catalog = second.app.get(ProviderCatalog);
    // The second replica holds a built snapshot, valid for a minute unless told otherwise.
    expect((await catalog.snapshot()).get('anthropic')).toBeUndefined();
    expect(catalog.snapshot()).not.toBeInstanceOf(Promise);

    const api = ossClient(first);
    expect((await api.post(PROVIDERS, { provider: 'anthropic' })).status).toBe(201);
    await vi.waitFor(async () => expect((await catalog.snapshot()).get('anthropic')).toBeDefined(), {
      timeout: 2000,
      interval: 25,
    });
    const key = (await api.post(`${PROVIDERS}/anthropic/keys`, { name: 'a', value: 'anthropic-value' })).body;
    await vi.waitFor(
      async () =>
        expect((await catalog.snapshot()).get('anthropic')?.keys[0]?.credentials.value).toBe('anthropic-value'),
      { timeout: 2000, interval: 25 },
    );
    expect((await api.put(`${PROVIDERS}/anthropic/keys/${key.id}`, { enabled: false })).status).toBe(200);
    await vi.waitFor(async () => expect((await catalog.snapshot()).get('anthropic')?.keys[0]?.enabled).toBe(false), {
      timeout: 2000,
      interval: 25,
    });
    expect((await api.delete(`${PROVIDERS}/anthropic`)).status).toBe(200);
    await vi.waitFor(async () => expect((await catalog.snapshot()).get('anthropic')).toBeUndefined(), {
      timeout: 2000,
      interval: 25,
    });
    // The second replica serves the API from the same rows.
    expect((await ossClient(second).get(`${PROVIDERS}/anthropic`)).status).toBe(404);
  });
});
