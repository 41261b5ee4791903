import type { ProviderId } from '../../../client.js';
import type { Kind } from '../kind.js';
import { secretsToFile, type Obj } from '../values.js';
import { budgetsToFile, createBody, pickFields, rateLimitToFile, str } from './shared.js';

const asNever = (value: Obj) => value as never;
const pid = (value: unknown) => str(value) as ProviderId;

export const providers: Kind = {
  name: 'providers',
  noun: 'provider',
  resource: 'ModelProvider',
  identity: (form) => str(form.provider),
  // Providers defined by the gateway's own config file cannot be changed through the API: not the file's to manage.
  list: async ({ client }) =>
    ((await client.providers.list().toArray()) as unknown as Obj[]).filter((p) => p.source !== 'config'),
  idOf: (raw) => str(raw.provider),
  rawName: (raw) => str(raw.provider),
  toFile: (raw) => ({
    provider: raw.provider,
    base_url: raw.base_url ?? null,
    network_config: raw.network_config,
    extra_headers: secretsToFile(raw.extra_headers ?? {}, [str(raw.provider), 'header']),
  }),
  create: async ({ client, resolveSecrets }, form) => {
    const created = await client.providers.create(asNever(resolveSecrets(createBody(form, ['base_url'])) as Obj));
    return { id: created.provider };
  },
  update: async ({ client, resolveSecrets }, id, changed) => {
    await client.providers.update(pid(id), asNever(resolveSecrets(changed) as Obj));
  },
  delete: async ({ client }, id) => {
    await client.providers.delete(pid(id));
  },
};

const KEY_FIELDS = [
  'name',
  'value',
  'weight',
  'enabled',
  'models',
  'blacklisted_models',
  'aliases',
  'azure_key_config',
  'bedrock_key_config',
  'vertex_key_config',
];

/** Provider keys: nested under their provider in the file, `<provider>/<name>` here. */
export const providerKeys: Kind = {
  name: 'provider_keys',
  noun: 'provider key',
  resource: 'ModelProvider',
  identity: (form) => `${str(form.provider)}/${str(form.name)}`,
  list: async ({ client }) =>
    ((await client.keys.list().toArray()) as unknown as Obj[]).filter((k) => k.source !== 'config'),
  idOf: (raw) => str(raw.id),
  rawName: (raw) => `${str(raw.provider)}/${str(raw.name)}`,
  toFile: (raw) => {
    const where = [str(raw.provider), str(raw.name)];
    const form: Obj = {
      provider: raw.provider,
      name: raw.name,
      value: secretsToFile(raw.value, [...where, 'value']),
      weight: raw.weight,
      enabled: raw.enabled,
      models: raw.models,
      blacklisted_models: raw.blacklisted_models,
      aliases: raw.aliases ?? {},
    };
    for (const field of ['azure_key_config', 'bedrock_key_config', 'vertex_key_config']) {
      if (raw[field]) form[field] = secretsToFile(raw[field], [...where, field]);
    }
    return pickFields(form, ['provider', ...KEY_FIELDS]);
  },
  refs: (form) => [{ kind: 'providers', name: str(form.provider), field: ['provider'] }],
  create: async ({ client, resolveSecrets }, form) => {
    const { provider, ...body } = form;
    const created = await client.keys.create(pid(provider), asNever(resolveSecrets(body) as Obj));
    return { id: created.id };
  },
  update: async ({ client, resolveSecrets }, id, changed, desired) => {
    await client.keys.update(pid(desired.provider), str(id), asNever(resolveSecrets(changed) as Obj));
  },
  delete: async ({ client }, id, live) => {
    await client.keys.delete(pid(live.provider), str(id));
  },
};

/** Budgets and a rate limit over a whole provider: `governance` under the provider in the file. */
export const providerGovernance: Kind = {
  name: 'provider_governance',
  noun: 'provider governance',
  resource: 'Governance',
  createOperation: 'Update',
  identity: (form) => str(form.provider),
  list: async ({ client }) => await client.providerGovernance.list().toArray(),
  idOf: (raw) => str(raw.provider),
  rawName: (raw) => str(raw.provider),
  toFile: (raw) => ({
    provider: raw.provider,
    calendar_aligned: raw.calendar_aligned ?? false,
    budgets: budgetsToFile(raw.budgets),
    rate_limit: rateLimitToFile(raw.rate_limit),
  }),
  refs: (form) => [{ kind: 'providers', name: str(form.provider), field: ['provider'] }],
  create: async ({ client }, form) => {
    const { provider, ...body } = form;
    await client.providerGovernance.put(pid(provider), asNever(createBody(body)));
    return { id: str(provider) };
  },
  update: async ({ client }, id, changed) => {
    await client.providerGovernance.put(pid(id), asNever(changed));
  },
  delete: async ({ client }, id) => {
    await client.providerGovernance.delete(pid(id));
  },
};
