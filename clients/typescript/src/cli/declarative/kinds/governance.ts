import type { Kind, KindContext, Ref } from '../kind.js';
import type { Obj } from '../values.js';
import { budgetsToFile, createBody, keyName, list, pickFields, rateLimitToFile, str } from './shared.js';

const asNever = (value: Obj) => value as never;

export const customers: Kind = {
  name: 'customers',
  noun: 'customer',
  resource: 'Customers',
  identity: (form) => str(form.name),
  list: async ({ client }) => await client.customers.list().toArray(),
  idOf: (raw) => str(raw.id),
  rawName: (raw) => str(raw.name),
  toFile: (raw) => ({
    name: raw.name,
    budgets: budgetsToFile(raw.budgets),
    rate_limit: rateLimitToFile(raw.rate_limit),
  }),
  create: async ({ client }, form) => {
    const { customer } = await client.customers.create(asNever(createBody(form)));
    return { id: customer.id };
  },
  update: async ({ client }, id, changed) => {
    await client.customers.update(str(id), asNever(changed));
  },
  delete: async ({ client }, id) => {
    await client.customers.delete(str(id));
  },
};

/** Links between a team and its customers (enterprise): attached and detached one by one. */
async function relink(ctx: KindContext, teamId: string, want: string[], have: string[]): Promise<void> {
  for (const name of want.filter((n) => !have.includes(n))) {
    await ctx.client.teams.linkCustomer(teamId, str(ctx.registry.id('customers', name)));
  }
  for (const name of have.filter((n) => !want.includes(n))) {
    await ctx.client.teams.unlinkCustomer(teamId, str(ctx.registry.id('customers', name)));
  }
}

export const teams: Kind = {
  name: 'teams',
  noun: 'team',
  resource: 'Teams',
  identity: (form) => str(form.name),
  list: async ({ client }) => await client.teams.list().toArray(),
  idOf: (raw) => str(raw.id),
  rawName: (raw) => str(raw.name),
  toFile: (raw, registry) => {
    const linked = list<string>(raw.customer_ids).map((id) => registry.name('customers', id)!);
    return {
      name: raw.name,
      ...(linked.length ? { customers: linked.sort() } : {}),
      budgets: budgetsToFile(raw.budgets),
      rate_limit: rateLimitToFile(raw.rate_limit),
    };
  },
  refs: (form) => list<string>(form.customers).map((name, i) => ({ kind: 'customers', name, field: ['customers', i] })),
  ownerTeam: (form) => str(form.name),
  create: async (ctx, form) => {
    const { customers: linked, ...rest } = form;
    const { team } = await ctx.client.teams.create(asNever(createBody(rest)));
    if (Array.isArray(linked) && linked.length) await relink(ctx, team.id, linked as string[], []);
    return { id: team.id };
  },
  update: async (ctx, id, changed, _desired, live) => {
    const { customers: linked, ...rest } = changed;
    if (Object.keys(rest).length) await ctx.client.teams.update(str(id), asNever(rest));
    if (linked !== undefined) await relink(ctx, str(id), list<string>(linked), list<string>(live.customers));
  },
  delete: async ({ client }, id) => {
    await client.teams.delete(str(id));
  },
};

const VK_FIELDS = [
  'name',
  'description',
  'is_active',
  'expires_at',
  'team',
  'customer',
  'provider_configs',
  'budgets',
  'rate_limit',
  'mcp',
];

export const virtualKeys: Kind = {
  name: 'virtual_keys',
  noun: 'virtual key',
  resource: 'VirtualKeys',
  identity: (form) => str(form.name),
  list: async ({ client }) => {
    const all: Obj[] = [];
    // Keys an access profile manages belong to that profile's users, not to the file.
    for await (const vk of client.virtualKeys.list()) if (vk.access_profile_copy_id === null) all.push(vk);
    return all;
  },
  idOf: (raw) => str(raw.id),
  rawName: (raw) => str(raw.name),
  toFile: (raw, registry) =>
    pickFields(
      {
        name: raw.name,
        description: raw.description ?? '',
        is_active: raw.is_active,
        expires_at: raw.expires_at ?? null,
        team: registry.name('teams', raw.team_id as string | null),
        customer: registry.name('customers', raw.customer_id as string | null),
        provider_configs: list<Obj>(raw.provider_configs).map((pc) => ({
          provider: pc.provider,
          weight: pc.weight ?? null,
          allowed_models: pc.allowed_models,
          blacklisted_models: pc.blacklisted_models,
          keys: list<string>(pc.key_ids).map((id) => (id === '*' ? '*' : keyName(registry, pc.provider, id))),
          budgets: budgetsToFile(pc.budgets),
          rate_limit: rateLimitToFile(pc.rate_limit),
        })),
        budgets: budgetsToFile(raw.budgets),
        rate_limit: rateLimitToFile(raw.rate_limit),
        mcp: list<Obj>(raw.mcp_configs).map((g) => ({
          client: registry.name('mcp_clients', g.mcp_client_id as string),
          tools: g.tools_to_execute,
        })),
      },
      VK_FIELDS,
    ),
  refs: (form) => {
    const refs: Ref[] = [];
    if (typeof form.team === 'string') refs.push({ kind: 'teams', name: form.team, field: ['team'] });
    if (typeof form.customer === 'string') refs.push({ kind: 'customers', name: form.customer, field: ['customer'] });
    list<Obj>(form.provider_configs).forEach((pc, i) => {
      refs.push({ kind: 'providers', name: str(pc.provider), field: ['provider_configs', i, 'provider'] });
      list<string>(pc.keys).forEach((key, j) => {
        if (key !== '*') {
          refs.push({
            kind: 'provider_keys',
            name: `${str(pc.provider)}/${key}`,
            field: ['provider_configs', i, 'keys', j],
          });
        }
      });
    });
    list<Obj>(form.mcp).forEach((g, i) =>
      refs.push({ kind: 'mcp_clients', name: str(g.client), field: ['mcp', i, 'client'] }),
    );
    return refs;
  },
  ownerTeam: (form) => (typeof form.team === 'string' ? form.team : undefined),
  create: async (ctx, form) => {
    const { virtual_key } = await ctx.client.virtualKeys.create(
      asNever(createBody(vkBody(ctx, form), ['rate_limit', 'expires_at'])),
    );
    return { id: virtual_key.id, shown: { value: virtual_key.value } };
  },
  update: async (ctx, id, changed) => {
    await ctx.client.virtualKeys.update(str(id), asNever(vkBody(ctx, changed)));
  },
  delete: async ({ client }, id) => {
    await client.virtualKeys.delete(str(id));
  },
};

/** A virtual key's API body from its file form (names to ids). */
function vkBody(ctx: KindContext, form: Obj): Obj {
  const body: Obj = {};
  const r = ctx.registry;
  for (const [field, value] of Object.entries(form)) {
    if (field === 'team') body.team_id = value === null ? null : r.id('teams', str(value));
    else if (field === 'customer') body.customer_id = value === null ? null : r.id('customers', str(value));
    else if (field === 'provider_configs') {
      body.provider_configs = list<Obj>(value).map(({ keys, ...pc }) => ({
        ...createBody(pc),
        ...(keys === undefined
          ? {}
          : {
              key_ids: list<string>(keys).map((k) =>
                k === '*' ? '*' : r.id('provider_keys', `${str(pc.provider)}/${k}`),
              ),
            }),
      }));
    } else if (field === 'mcp') {
      body.mcp_configs = list<Obj>(value).map((g) => ({
        mcp_client_id: r.id('mcp_clients', str(g.client)),
        ...(g.tools === undefined ? {} : { tools_to_execute: g.tools }),
      }));
    } else body[field] = value;
  }
  return body;
}

/** The name of a scope's object (`team ml`), from the form's scope reference fields. */
const SCOPE_KIND = { team: 'teams', customer: 'customers', virtual_key: 'virtual_keys' } as const;

function scopeName(form: Obj): string {
  const scope = str(form.scope ?? 'global');
  if (scope === 'global') return '';
  const value = form[scope];
  return typeof value === 'string' ? value : '';
}

export const routingRules: Kind = {
  name: 'routing_rules',
  noun: 'routing rule',
  resource: 'RoutingRules',
  identity: (form) => `${str(form.scope ?? 'global')}:${scopeName(form)}:${str(form.name)}`,
  list: async ({ client }) => await client.routingRules.list().toArray(),
  idOf: (raw) => str(raw.id),
  rawName: (raw) => str(raw.id),
  toFile: (raw, registry) => {
    const scope = str(raw.scope);
    const scopeKind = SCOPE_KIND[scope as keyof typeof SCOPE_KIND];
    return {
      name: raw.name,
      description: raw.description ?? '',
      enabled: raw.enabled,
      priority: raw.priority,
      scope,
      ...(scopeKind ? { [scope]: registry.name(scopeKind, raw.scope_id as string) } : {}),
      cel_expression: raw.cel_expression,
      targets: list<Obj>(raw.targets).map((t) => ({
        provider: t.provider ?? null,
        model: t.model ?? null,
        key: t.key_id ? keyName(registry, t.provider, t.key_id) : null,
        weight: t.weight,
      })),
      fallbacks: raw.fallbacks ?? [],
      chain_rule: raw.chain_rule ?? false,
      query: raw.query ?? {},
    };
  },
  refs: (form) => {
    const refs: Ref[] = [];
    const scope = str(form.scope ?? 'global');
    const kind = SCOPE_KIND[scope as keyof typeof SCOPE_KIND];
    if (kind) refs.push({ kind, name: scopeName(form), field: [scope] });
    list<Obj>(form.targets).forEach((t, i) => {
      if (typeof t.key === 'string') {
        refs.push({ kind: 'provider_keys', name: `${str(t.provider)}/${t.key}`, field: ['targets', i, 'key'] });
      }
    });
    return refs;
  },
  ownerTeam: (form, find) => {
    if (form.scope === 'team') return scopeName(form);
    if (form.scope === 'virtual_key') return teamOfKey(find, scopeName(form));
    return undefined;
  },
  create: async (ctx, form) => {
    const { rule } = await ctx.client.routingRules.create(asNever(routingBody(ctx, form)));
    return { id: rule.id };
  },
  update: async (ctx, id, changed, desired) => {
    // The scope fields go together: a changed scope or scope object sends both.
    const body = routingBody(ctx, {
      ...changed,
      ...('scope' in changed || scopeChanged(changed) ? pickScope(desired) : {}),
    });
    await ctx.client.routingRules.update(str(id), asNever(body));
  },
  delete: async ({ client }, id) => {
    await client.routingRules.delete(str(id));
  },
};

const scopeChanged = (changed: Obj) => 'team' in changed || 'customer' in changed || 'virtual_key' in changed;
const pickScope = (form: Obj): Obj => pickFields(form, ['scope', 'team', 'customer', 'virtual_key']);

function teamOfKey(find: (kind: 'virtual_keys', name: string) => Obj | undefined, key: string): string | undefined {
  const vk = find('virtual_keys', key);
  return typeof vk?.team === 'string' ? vk.team : undefined;
}

function routingBody(ctx: KindContext, form: Obj): Obj {
  const body: Obj = {};
  for (const [field, value] of Object.entries(form)) {
    if (field === 'team' || field === 'customer' || field === 'virtual_key') {
      if (form.scope === field || !('scope' in form)) {
        body.scope_id = value === null ? null : ctx.registry.id(SCOPE_KIND[field], str(value));
      }
    } else if (field === 'targets') {
      body.targets = list<Obj>(value).map(({ key, ...t }) => ({
        ...Object.fromEntries(Object.entries(t).filter(([, v]) => v !== null)),
        ...(typeof key === 'string' ? { key_id: ctx.registry.id('provider_keys', `${str(t.provider)}/${key}`) } : {}),
      }));
    } else body[field] = value;
  }
  if (body.scope === 'global') body.scope_id = null;
  return body;
}

export const modelConfigs: Kind = {
  name: 'model_configs',
  noun: 'model config',
  resource: 'Governance',
  identity: (form) => {
    const scope = str(form.scope ?? 'global');
    const on = scope === 'virtual_key' ? `:${str(form.virtual_key)}` : scope === 'user' ? `:${str(form.user_id)}` : '';
    return `${typeof form.provider === 'string' ? form.provider : '*'}/${str(form.model_name)}@${scope}${on}`;
  },
  list: async ({ client }) => await client.modelConfigs.list().toArray(),
  idOf: (raw) => str(raw.id),
  rawName: (raw) => str(raw.id),
  toFile: (raw, registry) => ({
    model_name: raw.model_name,
    provider: raw.provider ?? null,
    scope: raw.scope,
    ...(raw.scope === 'virtual_key' ? { virtual_key: registry.name('virtual_keys', raw.scope_id as string) } : {}),
    ...(raw.scope === 'user' ? { user_id: raw.scope_id } : {}),
    calendar_aligned: raw.calendar_aligned ?? false,
    budgets: budgetsToFile(raw.budgets),
    rate_limit: rateLimitToFile(raw.rate_limit),
  }),
  refs: (form) =>
    typeof form.virtual_key === 'string'
      ? [{ kind: 'virtual_keys', name: form.virtual_key, field: ['virtual_key'] }]
      : [],
  ownerTeam: (form, find) => (form.scope === 'virtual_key' ? teamOfKey(find, str(form.virtual_key)) : undefined),
  create: async (ctx, form) => {
    const { model_config } = await ctx.client.modelConfigs.create(
      asNever(createBody(modelConfigBody(ctx, form), ['rate_limit', 'provider'])),
    );
    return { id: model_config.id };
  },
  update: async (ctx, id, changed) => {
    await ctx.client.modelConfigs.update(str(id), asNever(modelConfigBody(ctx, changed)));
  },
  delete: async ({ client }, id) => {
    await client.modelConfigs.delete(str(id));
  },
};

function modelConfigBody(ctx: KindContext, form: Obj): Obj {
  const body: Obj = {};
  for (const [field, value] of Object.entries(form)) {
    if (field === 'virtual_key') body.scope_id = ctx.registry.id('virtual_keys', str(value));
    else if (field === 'user_id') body.scope_id = value;
    else body[field] = value;
  }
  return body;
}

export const pricingOverrides: Kind = {
  name: 'pricing_overrides',
  noun: 'pricing override',
  resource: 'Governance',
  identity: (form) => str(form.name),
  list: async ({ client }) => await client.pricingOverrides.list().toArray(),
  idOf: (raw) => str(raw.id),
  rawName: (raw) => str(raw.name),
  toFile: (raw, registry) => ({
    name: raw.name,
    scope_kind: raw.scope_kind,
    match_type: raw.match_type,
    pattern: raw.pattern,
    request_types: raw.request_types,
    provider: raw.provider_id ?? null,
    provider_key: raw.provider_key_id ? keyName(registry, raw.provider_id, raw.provider_key_id) : null,
    virtual_key: raw.virtual_key_id ? registry.name('virtual_keys', raw.virtual_key_id as string) : null,
    user_id: raw.user_id ?? null,
    patch: raw.patch,
  }),
  refs: (form) => {
    const refs: Ref[] = [];
    if (typeof form.virtual_key === 'string')
      refs.push({ kind: 'virtual_keys', name: form.virtual_key, field: ['virtual_key'] });
    if (typeof form.provider_key === 'string') {
      refs.push({ kind: 'provider_keys', name: `${str(form.provider)}/${form.provider_key}`, field: ['provider_key'] });
    }
    return refs;
  },
  ownerTeam: (form, find) => (typeof form.virtual_key === 'string' ? teamOfKey(find, form.virtual_key) : undefined),
  create: async (ctx, form) => {
    const { pricing_override } = await ctx.client.pricingOverrides.create(asNever(pricingBody(ctx, form, true)));
    return { id: pricing_override.id };
  },
  update: async (ctx, id, changed, desired) => {
    const withProvider = 'provider_key' in changed ? { ...changed, provider: desired.provider } : changed;
    await ctx.client.pricingOverrides.update(str(id), asNever(pricingBody(ctx, withProvider, false)));
  },
  delete: async ({ client }, id) => {
    await client.pricingOverrides.delete(str(id));
  },
};

function pricingBody(ctx: KindContext, form: Obj, creating: boolean): Obj {
  const body: Obj = {};
  for (const [field, value] of Object.entries(form)) {
    if (creating && value === null) continue;
    if (field === 'provider') body.provider_id = value;
    else if (field === 'provider_key') {
      body.provider_key_id =
        value === null ? null : ctx.registry.id('provider_keys', `${str(form.provider)}/${str(value)}`);
    } else if (field === 'virtual_key')
      body.virtual_key_id = value === null ? null : ctx.registry.id('virtual_keys', str(value));
    else body[field] = value;
  }
  return body;
}
