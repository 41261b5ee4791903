import type { Options } from './spec.js';

export type ResourceOp = 'list' | 'get' | 'create' | 'update' | 'delete';

/**
 * A resource group of the CLI and how its objects are named: `uuid` and `int` ids may also be given by name (looked up
 * in the list), `name` ids are names (providers, policies, agents, plugins).
 */
export interface ResourceSpec {
  command: string;
  /** The GatewayClient group that serves it. */
  group: string;
  noun: string;
  summary: string;
  id: 'uuid' | 'int' | 'name';
  /** The field holding the object's name (matched by `get <name>`). */
  nameField: string;
  ops: readonly ResourceOp[];
  /** Table columns of `list` (dotted paths). */
  columns: readonly string[];
  listOptions?: Options;
  /** The object sits under a provider (`keys`): get/update/delete take `<provider> <key>`. */
  underProvider?: boolean;
  enterprise?: boolean;
}

const commaList = (what: string) =>
  ({ type: 'string', value: '<a,b>', description: `comma-separated ${what}` }) as const;

export const RESOURCES: readonly ResourceSpec[] = [
  {
    command: 'providers',
    group: 'providers',
    noun: 'provider',
    summary: 'model providers (base URL, network settings)',
    id: 'name',
    nameField: 'provider',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['provider', 'base_url', 'key_count', 'source'],
  },
  {
    command: 'keys',
    group: 'keys',
    noun: 'provider key',
    summary: "providers' API keys (values are never shown)",
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'provider', 'name', 'weight', 'enabled', 'models'],
    underProvider: true,
    listOptions: { provider: { type: 'string', value: '<provider>', description: "only this provider's keys" } },
  },
  {
    command: 'virtual-keys',
    group: 'virtualKeys',
    noun: 'virtual key',
    summary: 'virtual keys and their policies',
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'name', 'is_active', 'team_id', 'customer_id', 'expires_at'],
    listOptions: {
      'sort-by': { type: 'string', value: '<field>', description: 'sort field', choices: ['name', 'created_at'] },
      order: { type: 'string', value: '<asc|desc>', description: 'sort order', choices: ['asc', 'desc'] },
    },
  },
  {
    command: 'teams',
    group: 'teams',
    noun: 'team',
    summary: 'teams (budgets, rate limit, customers)',
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'name', 'customer_ids'],
  },
  {
    command: 'customers',
    group: 'customers',
    noun: 'customer',
    summary: 'customers (budgets, rate limit)',
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'name'],
  },
  {
    command: 'budgets',
    group: 'budgets',
    noun: 'budget',
    summary: 'every budget with its owner (set budgets on their owners)',
    id: 'uuid',
    nameField: 'id',
    ops: ['list'],
    columns: ['id', 'owner.kind', 'owner.name', 'max_limit', 'reset_duration', 'current_usage'],
  },
  {
    command: 'routing-rules',
    group: 'routingRules',
    noun: 'routing rule',
    summary: 'routing rules (CEL conditions, targets, fallbacks)',
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'name', 'scope', 'priority', 'enabled'],
    listOptions: {
      scope: { type: 'string', value: '<scope>', description: 'only rules of this scope' },
      'scope-id': { type: 'string', value: '<id>', description: 'only rules of this scope id' },
    },
  },
  {
    command: 'pricing-overrides',
    group: 'pricingOverrides',
    noun: 'pricing override',
    summary: 'pricing overrides',
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'name', 'scope_kind', 'match_type', 'pattern'],
  },
  {
    command: 'model-configs',
    group: 'modelConfigs',
    noun: 'model config',
    summary: 'budgets and rate limits on models',
    id: 'uuid',
    nameField: 'model_name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'model_name', 'provider', 'scope', 'scope_id'],
  },
  {
    command: 'mcp-clients',
    group: 'mcpClients',
    noun: 'MCP client',
    summary: 'MCP servers the gateway connects to',
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'name', 'connection_type', 'state', 'disabled'],
    listOptions: {
      search: { type: 'string', value: '<text>', description: 'substring of the name' },
      'connection-type': { type: 'string', value: '<type>', description: 'http, sse or stdio' },
      state: { type: 'string', value: '<state>', description: 'connection state' },
    },
  },
  {
    command: 'access-profiles',
    group: 'accessProfiles',
    noun: 'access profile',
    summary: 'access profile templates (enterprise)',
    id: 'int',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'name', 'is_active', 'version', 'tags'],
    enterprise: true,
    listOptions: {
      search: { type: 'string', value: '<text>', description: 'substring of the name or description' },
      tags: commaList('tags (any of them)'),
      'is-active': { type: 'string', value: '<true|false>', description: 'only active or inactive templates' },
    },
  },
  {
    command: 'circuit-breakers',
    group: 'circuitBreakers',
    noun: 'circuit-breaker policy',
    summary: 'circuit-breaker policies (enterprise)',
    id: 'name',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['name', 'primary_provider', 'primary_model', 'fallback_provider', 'fallback_model', 'enabled'],
    enterprise: true,
  },
  {
    command: 'agents',
    group: 'agents',
    noun: 'agent',
    summary: 'A2A agent registrations',
    id: 'name',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['name', 'agent_card_url', 'enabled', 'allow_by_default'],
  },
  {
    command: 'webhooks',
    group: 'webhooks',
    noun: 'webhook',
    summary: 'signed event deliveries to your endpoints',
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'get', 'create', 'update', 'delete'],
    columns: ['id', 'name', 'url', 'enabled'],
  },
  {
    command: 'plugins',
    group: 'plugins',
    noun: 'plugin',
    summary: 'built-in plugins (logging, cache, telemetry, jsonparser)',
    id: 'name',
    nameField: 'name',
    ops: ['list', 'get', 'update'],
    columns: ['name', 'enabled', 'order'],
  },
  {
    command: 'management-keys',
    group: 'managementKeys',
    noun: 'management key',
    summary: 'scoped management API keys for automation',
    id: 'uuid',
    nameField: 'name',
    ops: ['list', 'create', 'delete'],
    columns: ['id', 'name', 'scopes', 'expires_at', 'last_used_at'],
  },
];

/** Log filters shared by `logs export`, `logs tail` and their API parameters (option name: query name). */
export const LOG_FILTERS: Options = {
  providers: commaList('provider ids'),
  models: commaList('models'),
  status: commaList('statuses: processing, success, error'),
  objects: commaList('request types'),
  'virtual-key-ids': commaList('virtual key ids'),
  'selected-key-ids': commaList('provider key ids'),
  'team-ids': commaList('team ids'),
  'customer-ids': commaList('customer ids'),
  'routing-rule-ids': commaList('routing rule ids'),
  'start-time': { type: 'string', value: '<time>', description: 'earliest timestamp (RFC 3339, inclusive)' },
  'end-time': { type: 'string', value: '<time>', description: 'latest timestamp (RFC 3339, inclusive; default: now)' },
  'min-latency': { type: 'string', value: '<ms>', description: 'least latency' },
  'max-latency': { type: 'string', value: '<ms>', description: 'greatest latency' },
  'min-tokens': { type: 'string', value: '<n>', description: 'least total tokens' },
  'max-tokens': { type: 'string', value: '<n>', description: 'greatest total tokens' },
  'min-cost': { type: 'string', value: '<usd>', description: 'least cost' },
  'max-cost': { type: 'string', value: '<usd>', description: 'greatest cost' },
  'missing-cost-only': { type: 'boolean', description: 'only rows whose cost is unknown' },
  'cache-hit': { type: 'string', value: '<true|false>', description: 'only cache hits, or only the rest' },
  'content-search': { type: 'string', value: '<text>', description: 'substring of the input or output text' },
};

export const MCP_LOG_FILTERS: Options = {
  'tool-names': commaList('tool names'),
  'server-labels': commaList('server labels'),
  status: commaList('statuses: processing, success, error'),
  'virtual-key-ids': commaList('virtual key ids'),
  'llm-request-ids': commaList('request ids'),
  'start-time': LOG_FILTERS['start-time']!,
  'end-time': LOG_FILTERS['end-time']!,
  'min-latency': LOG_FILTERS['min-latency']!,
  'max-latency': LOG_FILTERS['max-latency']!,
  'content-search': LOG_FILTERS['content-search']!,
};
