import { describe, expect, it } from 'vitest';
import {
  createProviderRequest,
  headerProblems,
  headersLine,
  keyDetails,
  keyFormValues,
  keyRequest,
  keyRowProblems,
  keysOf,
  providerFieldOf,
  modelSuggestions,
  PROVIDER_IDS,
  providerFormValues,
  secretSource,
  servedModels,
  updateProviderRequest,
  type ProviderKeyView,
  type ProviderView,
} from './provider-helpers';

const key = (over: Partial<ProviderKeyView>): ProviderKeyView => ({
  id: 'k',
  provider: 'openai',
  name: 'primary',
  weight: 1,
  models: ['*'],
  blacklisted_models: [],
  aliases: {},
  enabled: true,
  source: 'api',
  created_at: '2026-12-01T00:00:00Z',
  updated_at: '2026-12-01T00:00:00Z',
  ...over,
});

describe('providers and keys helpers', () => {
  it('the provider ids are the API’s own', () => {
    expect(PROVIDER_IDS).toContain('openai');
    expect(PROVIDER_IDS).toContain('anthropic');
    expect(PROVIDER_IDS.length).toBeGreaterThan(20);
  });

  it('keys of a provider, by name', () => {
    const keys = [key({ name: 'b' }), key({ name: 'x', provider: 'anthropic' }), key({ name: 'a' })];
    expect(keysOf(keys, 'openai').map((k) => k.name)).toEqual(['a', 'b']);
  });

  it('which models a key serves, as the router decides it', () => {
    expect(servedModels(key({}))).toBe('Every model');
    expect(servedModels(key({ blacklisted_models: ['o1', 'o3'] }))).toBe('Every model except o1, o3');
    expect(servedModels(key({ models: ['gpt-4o', 'o1'], blacklisted_models: ['o1'] }))).toBe('gpt-4o');
    expect(servedModels(key({ models: [], aliases: { fast: { model_id: 'gpt-4o-mini' } } }))).toBe('fast');
    expect(servedModels(key({ models: [] }))).toBe('No model');
    expect(
      modelSuggestions([key({ models: ['*'] }), key({ models: ['b', 'a'], aliases: { c: { model_id: 'x' } } })]),
    ).toEqual(['a', 'b', 'c']);
  });

  it('a secret reads as redacted, with its source when it has one', () => {
    expect(secretSource({ value: '<REDACTED>', ref: '', type: 'plain_text' })).toBe('Redacted');
    expect(secretSource({ value: '<REDACTED>', ref: 'env.OPENAI_KEY', type: 'env' })).toBe('Redacted (env.OPENAI_KEY)');
    expect(secretSource(undefined)).toBe('No value');
  });

  it('provider form ↔ requests: blanks left out on create, an emptied base URL cleared on update', () => {
    const values = providerFormValues();
    values.provider = 'openai';
    values.base_url = ' http://sim/v1 ';
    values.network_config.max_retries = '2';
    expect(createProviderRequest(values)).toEqual({
      provider: 'openai',
      base_url: 'http://sim/v1',
      network_config: { max_retries: 2 },
    });
    const view = {
      provider: 'openai',
      base_url: 'http://sim/v1',
      extra_headers: {},
      network_config: {
        default_request_timeout: '30s',
        max_retries: 0,
        retry_backoff_initial: '500ms',
        retry_backoff_max: '5s',
      },
      source: 'api',
      key_count: 1,
      created_at: '',
      updated_at: '',
    } satisfies ProviderView;
    const edited = providerFormValues(view);
    expect(edited.network_config.max_retries).toBe('0');
    edited.base_url = '';
    expect(updateProviderRequest(edited)).toEqual({
      base_url: null,
      extra_headers: {},
      network_config: {
        default_request_timeout: '30s',
        max_retries: 0,
        retry_backoff_initial: '500ms',
        retry_backoff_max: '5s',
      },
    });
  });

  it('key form ↔ request: a stored value is never read back; an empty one keeps it, a typed one rotates it', () => {
    const stored = key({
      value: { value: '<REDACTED>', ref: '', type: 'plain_text' },
      weight: 2.5,
      models: ['gpt-4o'],
    });
    const values = keyFormValues(stored);
    expect(values.value).toBe('');
    expect(keyRequest(values, 'openai', stored)).toEqual({
      name: 'primary',
      weight: 2.5,
      models: ['gpt-4o'],
      blacklisted_models: [],
      aliases: {},
      enabled: true,
    });
    const rotated = keyRequest({ ...values, value: 'sk-new', weight: '' }, 'openai', stored);
    expect(rotated.value).toBe('sk-new');
    expect('weight' in rotated).toBe(false);
    expect(keyFormValues().models).toEqual(['*']);
  });

  it('extra headers: typed values sent, untouched stored ones kept as <REDACTED>, a removed row removed', () => {
    const view = {
      provider: 'openai',
      extra_headers: {
        'OpenAI-Organization': { value: '<REDACTED>', ref: 'env.ORG', type: 'env' },
        'X-Team': { value: '<REDACTED>', ref: '', type: 'plain_text' },
        'X-Old': { value: '<REDACTED>', ref: '', type: 'plain_text' },
      },
      network_config: {
        default_request_timeout: '30s',
        max_retries: 0,
        retry_backoff_initial: '1s',
        retry_backoff_max: '5s',
      },
      source: 'api',
      key_count: 0,
      created_at: '',
      updated_at: '',
    } satisfies ProviderView;
    const values = providerFormValues(view);
    expect(values.extra_headers.map((h) => [h.name, h.value, h.source])).toEqual([
      ['OpenAI-Organization', '', 'Redacted (env.ORG)'],
      ['X-Team', '', 'Redacted'],
      ['X-Old', '', 'Redacted'],
    ]);
    values.extra_headers[1]!.value = 'team-b';
    values.extra_headers.splice(2, 1);
    values.extra_headers.push({ name: 'X-New', value: 'env.NEW', stored: '', source: '' });
    expect(headerProblems(values.extra_headers)).toEqual({});
    expect(updateProviderRequest(values).extra_headers).toEqual({
      'OpenAI-Organization': '<REDACTED>',
      'X-Team': 'team-b',
      'X-New': 'env.NEW',
    });
    expect(headersLine(view.extra_headers)).toBe(
      'Headers: OpenAI-Organization: Redacted (env.ORG), X-Team: Redacted, X-Old: Redacted',
    );
    // A renamed stored header has no value to carry over; a new one needs one; names are case-insensitive.
    values.extra_headers[0]!.name = 'OpenAI-Org';
    values.extra_headers.push({ name: 'x-team', value: 'again', stored: '', source: '' });
    values.extra_headers.push({ name: 'X-Empty', value: '', stored: '', source: '' });
    expect(headerProblems(values.extra_headers)).toEqual({
      'extra_headers.0.value': 'Renamed: type the value again',
      'extra_headers.3.name': 'Listed twice',
      'extra_headers.4.value': 'Required',
    });
    // The API names a header by its name: the row holding it.
    expect(providerFieldOf('extra_headers.X-NEW', values)).toBe('extra_headers.2.name');
    expect(providerFieldOf('base_url', values)).toBeUndefined();
    // On create, no header is no field.
    const fresh = providerFormValues();
    fresh.provider = 'openai';
    fresh.extra_headers.push({ name: '', value: '', stored: '', source: '' });
    expect('extra_headers' in createProviderRequest(fresh)).toBe(false);
  });

  it('aliases: rows to the API map, checked by ProviderKeyAlias; sent whole on an update', () => {
    const values = keyFormValues();
    values.name = 'k';
    values.aliases.push({ alias: 'fast', model_id: 'gpt-4o-mini', model_name: '', model_family: ' gpt ' });
    expect(keyRequest(values, 'openai').aliases).toEqual({ fast: { model_id: 'gpt-4o-mini', model_family: 'gpt' } });
    values.aliases.push({ alias: 'fast', model_id: '', model_name: 'x'.repeat(256), model_family: '' });
    expect(keyRowProblems(values, 'openai')).toEqual({
      'aliases.1.alias': 'Listed twice',
      'aliases.1.model_id': 'Required',
      'aliases.1.model_name': 'At most 255 characters',
    });
    const stored = key({ aliases: { fast: { model_id: 'gpt-4o-mini' } } });
    const edited = keyFormValues(stored);
    expect(edited.aliases).toEqual([{ alias: 'fast', model_id: 'gpt-4o-mini', model_name: '', model_family: '' }]);
    edited.aliases = [];
    expect(keyRequest(edited, 'openai', stored).aliases).toEqual({});
    expect('aliases' in keyRequest(keyFormValues(), 'openai')).toBe(false);
  });

  it('Azure: endpoint, api-version and deployments as one block', () => {
    const values = keyFormValues();
    values.name = 'az';
    values.value = 'azure-key';
    values.azure_key_config = {
      endpoint: ' https://res.openai.azure.com ',
      api_version: '',
      deployments: [
        { model: 'gpt-4o', deployment: 'gpt-4o-prod' },
        { model: '', deployment: '' },
      ],
    };
    expect(keyRequest(values, 'azure').azure_key_config).toEqual({
      endpoint: 'https://res.openai.azure.com',
      deployments: { 'gpt-4o': 'gpt-4o-prod' },
    });
    expect(keyRequest(values, 'openai').azure_key_config).toBeUndefined();
    values.azure_key_config.deployments.push({ model: 'gpt-4o', deployment: '' });
    expect(keyRowProblems(values, 'azure')).toEqual({
      'azure_key_config.deployments.2.model': 'Listed twice',
      'azure_key_config.deployments.2.deployment': 'Required',
    });
    const view = key({
      provider: 'azure',
      azure_key_config: { endpoint: 'https://res', api_version: '2024-10-21', deployments: { 'gpt-4o': 'prod' } },
    });
    expect(keyFormValues(view).azure_key_config).toEqual({
      endpoint: 'https://res',
      api_version: '2024-10-21',
      deployments: [{ model: 'gpt-4o', deployment: 'prod' }],
    });
    expect(keyDetails(view)).toEqual(['Azure https://res · api-version 2024-10-21 · gpt-4o → prod']);
  });

  it('Bedrock: untouched stored secrets are sent back as <REDACTED> (kept), removed ones left out', () => {
    const values = keyFormValues();
    values.name = 'br';
    values.bedrock_key_config = { region: 'us-east-1', access_key: 'AKID', secret_key: 'sek', session_token: '' };
    expect(keyRequest(values, 'bedrock').bedrock_key_config).toEqual({
      region: 'us-east-1',
      access_key: 'AKID',
      secret_key: 'sek',
    });
    // bedrock_mantle may carry the block; left empty it is not sent.
    expect(keyRequest(keyFormValues(), 'bedrock_mantle').bedrock_key_config).toBeUndefined();
    const redacted = { value: '<REDACTED>', ref: '', type: 'plain_text' as const };
    const stored = key({
      provider: 'bedrock',
      bedrock_key_config: { region: 'us-east-1', access_key: redacted, secret_key: redacted, session_token: redacted },
    });
    const edited = keyFormValues(stored);
    expect(edited.bedrock_key_config).toEqual({
      region: 'us-east-1',
      access_key: '',
      secret_key: '',
      session_token: '',
    });
    edited.bedrock_key_config.region = 'eu-west-1';
    edited.bedrock_removed = ['session_token'];
    expect(keyRequest(edited, 'bedrock', stored).bedrock_key_config).toEqual({
      region: 'eu-west-1',
      access_key: '<REDACTED>',
      secret_key: '<REDACTED>',
    });
    expect(keyDetails(stored)).toEqual(['Bedrock us-east-1 · access key Redacted with a session token']);
  });

  it('Vertex: the service account typed, or kept as <REDACTED> when stored and left empty', () => {
    const values = keyFormValues();
    values.name = 'vx';
    values.vertex_key_config = { project_id: 'p', region: 'us-central1', auth_credentials: '{"type":"x"}' };
    expect(keyRequest(values, 'vertex').vertex_key_config).toEqual({
      project_id: 'p',
      region: 'us-central1',
      auth_credentials: '{"type":"x"}',
    });
    values.vertex_key_config.auth_credentials = '';
    expect(keyRequest(values, 'vertex').vertex_key_config?.auth_credentials).toBe('');
    const stored = key({
      provider: 'vertex',
      vertex_key_config: {
        project_id: 'p',
        region: 'us-central1',
        auth_credentials: { value: '<REDACTED>', ref: '', type: 'plain_text' },
      },
    });
    expect(keyRequest(keyFormValues(stored), 'vertex', stored).vertex_key_config?.auth_credentials).toBe('<REDACTED>');
    expect(keyDetails(stored)).toEqual(['Vertex p / us-central1 · service account Redacted']);
  });
});
