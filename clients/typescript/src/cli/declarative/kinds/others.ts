import type { Kind, KindContext, Ref } from '../kind.js';
import { isObj, secretsToFile, type Obj } from '../values.js';
import { createBody, keyName, list, rateLimitToFile, str } from './shared.js';
import type { ProviderId } from '../../../client.js';

const asNever = (value: Obj) => value as never;

export const mcpClients: Kind = {
  name: 'mcp_clients',
  noun: 'MCP client',
  resource: 'MCPGateway',
  identity: (form) => str(form.name),
  list: async ({ client }) => await client.mcpClients.list().toArray(),
  idOf: (raw) => str(raw.id),
  rawName: (raw) => str(raw.name),
  toFile: (raw) => {
    const where = ['mcp', str(raw.name)];
    const stdio = isObj(raw.stdio_config) ? raw.stdio_config : null;
    return {
      name: raw.name,
      connection_type: raw.connection_type,
      connection_string: raw.connection_string ?? null,
      stdio_config: stdio
        ? { command: stdio.command, args: stdio.args ?? [], envs: secretsToFile(stdio.envs ?? {}, [...where, 'env']) }
        : null,
      headers: secretsToFile(raw.headers ?? {}, [...where, 'header']),
      tools_to_execute: raw.tools_to_execute,
      tools_to_auto_execute: raw.tools_to_auto_execute,
      tool_pricing: raw.tool_pricing ?? {},
      tool_execution_timeout: raw.tool_execution_timeout,
      allow_on_all_virtual_keys: raw.allow_on_all_virtual_keys,
      disabled: raw.disabled,
    };
  },
  create: async ({ client, resolveSecrets }, form) => {
    const created = await client.mcpClients.create(
      asNever(resolveSecrets(createBody(form, ['connection_string', 'stdio_config'])) as Obj),
    );
    return { id: created.id };
  },
  update: async ({ client, resolveSecrets }, id, changed) => {
    await client.mcpClients.update(str(id), asNever(resolveSecrets(changed) as Obj));
  },
  delete: async ({ client }, id) => {
    await client.mcpClients.delete(str(id));
  },
};

/** Access profile templates (enterprise): MCP grants name their clients. */
export const accessProfiles: Kind = {
  name: 'access_profiles',
  noun: 'access profile',
  resource: 'AccessProfiles',
  enterprise: true,
  identity: (form) => str(form.name),
  list: async ({ client }) => await client.accessProfiles.list().toArray(),
  idOf: (raw) => Number(raw.id),
  rawName: (raw) => str(raw.name),
  toFile: (raw, registry) => ({
    name: raw.name,
    description: raw.description ?? '',
    is_active: raw.is_active,
    tags: raw.tags ?? [],
    calendar_aligned: raw.calendar_aligned ?? false,
    provider_configs: raw.provider_configs ?? [],
    budgets: raw.budgets ?? [],
    rate_limit: rateLimitToFile(raw.rate_limit),
    mcp_servers: list<Obj>(raw.mcp_servers).map((s) => registry.name('mcp_clients', s.mcp_server_id as string)),
    mcp_tool_groups: list<Obj>(raw.mcp_tool_groups).map((g) => g.tool_group_id),
    mcp_tool_overrides: list<Obj>(raw.mcp_tool_overrides).map((o) => ({
      client: registry.name('mcp_clients', o.mcp_client_id as string),
      tool_name: o.tool_name,
      action: o.action,
    })),
  }),
  refs: (form) => {
    const refs: Ref[] = [];
    list<string>(form.mcp_servers).forEach((name, i) =>
      refs.push({ kind: 'mcp_clients', name, field: ['mcp_servers', i] }),
    );
    list<Obj>(form.mcp_tool_overrides).forEach((o, i) =>
      refs.push({ kind: 'mcp_clients', name: str(o.client), field: ['mcp_tool_overrides', i, 'client'] }),
    );
    return refs;
  },
  create: async (ctx, form) => {
    const created = await ctx.client.accessProfiles.create(asNever(createBody(profileBody(ctx, form))));
    return { id: created.id };
  },
  update: async (ctx, id, changed) => {
    await ctx.client.accessProfiles.update(Number(id), asNever(profileBody(ctx, changed)));
  },
  delete: async ({ client }, id) => {
    await client.accessProfiles.delete(Number(id));
  },
};

function profileBody(ctx: KindContext, form: Obj): Obj {
  const body: Obj = { ...form };
  if ('mcp_servers' in form) {
    body.mcp_servers = list<string>(form.mcp_servers).map((n) => ({
      mcp_server_id: ctx.registry.id('mcp_clients', n),
    }));
  }
  if ('mcp_tool_groups' in form)
    body.mcp_tool_groups = list<string>(form.mcp_tool_groups).map((g) => ({ tool_group_id: g }));
  if ('mcp_tool_overrides' in form) {
    body.mcp_tool_overrides = list<Obj>(form.mcp_tool_overrides).map(({ client, ...o }) => ({
      ...o,
      mcp_client_id: ctx.registry.id('mcp_clients', str(client)),
    }));
  }
  return body;
}

/** Circuit-breaker policies (enterprise): PUT replaces the whole policy. */
export const circuitBreakers: Kind = {
  name: 'circuit_breakers',
  noun: 'circuit-breaker policy',
  resource: 'CircuitBreaker',
  enterprise: true,
  replace: true,
  identity: (form) => str(form.name),
  list: async ({ client }) => await client.circuitBreakers.list().toArray(),
  idOf: (raw) => str(raw.name),
  rawName: (raw) => str(raw.name),
  toFile: (raw, registry) => ({
    name: raw.name,
    enabled: raw.enabled,
    primary_provider: raw.primary_provider,
    primary_model: raw.primary_model,
    primary_keys: list<string>(raw.primary_key_ids).map((id) => keyName(registry, raw.primary_provider, id)),
    fallback_provider: raw.fallback_provider,
    fallback_model: raw.fallback_model,
    condition: raw.condition,
    default_cooldown: raw.default_cooldown,
    cooldown_header: raw.cooldown_header ?? null,
  }),
  refs: (form) =>
    list<string>(form.primary_keys).map((name, i) => ({
      kind: 'provider_keys',
      name: `${str(form.primary_provider)}/${name}`,
      field: ['primary_keys', i],
    })),
  create: async (ctx, form) => {
    const created = await ctx.client.circuitBreakers.create(asNever(policyBody(ctx, form)));
    return { id: created.name };
  },
  update: async (ctx, id, _changed, desired, live) => {
    await ctx.client.circuitBreakers.update(str(id), asNever(policyBody(ctx, { ...live, ...desired })));
  },
  delete: async ({ client }, id) => {
    await client.circuitBreakers.delete(str(id));
  },
};

function policyBody(ctx: KindContext, form: Obj): Obj {
  const { primary_keys, ...body } = form;
  return {
    ...body,
    ...(primary_keys === undefined
      ? {}
      : {
          primary_key_ids: list<string>(primary_keys).map((n) =>
            ctx.registry.id('provider_keys', `${str(form.primary_provider)}/${n}`),
          ),
        }),
  };
}

export const webhooks: Kind = {
  name: 'webhooks',
  noun: 'webhook',
  resource: 'Webhooks',
  identity: (form) => str(form.name),
  list: async ({ client }) => await client.webhooks.list().toArray(),
  idOf: (raw) => str(raw.id),
  rawName: (raw) => str(raw.name),
  // The signing secret is the gateway's own (rotate it with the API), not configuration.
  toFile: (raw) => ({
    name: raw.name,
    url: raw.url,
    description: raw.description ?? null,
    enabled: raw.enabled,
    headers: secretsToFile(raw.headers ?? {}, ['webhook', str(raw.name), 'header']),
  }),
  create: async ({ client, resolveSecrets }, form) => {
    const created = await client.webhooks.create(asNever(resolveSecrets(form) as Obj));
    return { id: created.id };
  },
  update: async ({ client, resolveSecrets }, id, changed) => {
    await client.webhooks.update(str(id), asNever(resolveSecrets(changed) as Obj));
  },
  delete: async ({ client }, id) => {
    await client.webhooks.delete(str(id));
  },
};

/** The built-in plugins: changed in place, never created or deleted. */
export const plugins: Kind = {
  name: 'plugins',
  noun: 'plugin',
  resource: 'Plugins',
  fixed: true,
  identity: (form) => str(form.name),
  list: async ({ client }) => await client.plugins.list().toArray(),
  idOf: (raw) => str(raw.name),
  rawName: (raw) => str(raw.name),
  toFile: (raw) => ({ name: raw.name, enabled: raw.enabled, order: raw.order, config: raw.config ?? {} }),
  update: async ({ client }, id, changed) => {
    await client.plugins.update(str(id), asNever(changed));
  },
};

/** Leaves of a nested object as dotted paths (`logs.retention`). */
function leaves(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (!isObj(value)) return [[prefix, value]];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

function nest(entries: Array<[string, unknown]>): Obj {
  const out: Obj = {};
  for (const [path, value] of entries) {
    const parts = path.split('.');
    let at = out;
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Obj;
    at[parts.at(-1)!] = value;
  }
  return out;
}

/**
 * Runtime settings: one object, identity `config`. The file holds the settings set through the API (source `api`);
 * the others keep their file or default values and are not the file's to manage.
 */
export const runtimeConfig: Kind = {
  name: 'config',
  noun: 'runtime config',
  resource: 'Settings',
  fixed: true,
  identity: () => 'config',
  list: async ({ client }) => [await client.config.get()],
  idOf: () => 'config',
  rawName: () => 'config',
  toFile: (raw) => {
    const sources = (raw.sources ?? {}) as Record<string, string>;
    return nest(leaves(raw.config).filter(([path]) => sources[path] === 'api'));
  },
  update: async ({ client }, _id, changed) => {
    await client.config.update(asNever(changed));
  },
};

export const providerIdOf = (value: unknown) => str(value) as ProviderId;
export { leaves, nest };
