import { any, arr, bool, int, jsonSchema, map, nullable, num, obj, oneOf, secret, str, type Shape } from './schema.js';

/** The file format's version; a file of another version is refused. */
export const FILE_VERSION = 1;

const duration = (what: string) => str(`${what}: a count and a unit (m, h, d, w, M, Q, Y), e.g. 1d or 1M`);
const budget = obj(
  {
    max_limit: num('USD the owner may spend per window', 0),
    reset_duration: duration('the window'),
    calendar_aligned: bool('reset on UTC calendar boundaries (1d, 1w, 1M, 1Q, 1Y only)'),
  },
  ['max_limit', 'reset_duration'],
);
const budgets = arr(budget, 'budgets (one per window length)');
const rateLimit = nullable(
  obj({
    request_max_limit: nullable(int('requests per window', 0)),
    request_reset_duration: nullable(duration('the request window')),
    token_max_limit: nullable(int('tokens per window', 0)),
    token_reset_duration: nullable(duration('the token window')),
  }),
);
const stringList = (what?: string) => arr(str(), what);

const providerKey = obj(
  {
    name: str('the key name (unique per provider)'),
    value: secret("the provider's API key, as a reference"),
    weight: num('share of the provider traffic', 0),
    enabled: bool(),
    models: stringList('models the key serves (["*"]: all)'),
    blacklisted_models: stringList('models it never serves'),
    aliases: map(any(), 'model aliases of this key'),
    azure_key_config: any('Azure settings (secrets as references)'),
    bedrock_key_config: any('Bedrock settings (secrets as references)'),
    vertex_key_config: any('Vertex settings (secrets as references)'),
  },
  ['name'],
);

const provider = obj(
  {
    provider: str('the provider id (openai, anthropic, …)'),
    base_url: nullable(str()),
    network_config: obj({
      default_request_timeout: str(),
      max_retries: int(undefined, 0),
      retry_backoff_initial: str(),
      retry_backoff_max: str(),
    }),
    extra_headers: map(secret(), 'headers sent with every request to the provider'),
    governance: nullable(
      obj({ calendar_aligned: bool(), budgets, rate_limit: rateLimit }, [], 'budgets and a rate limit on the provider'),
    ),
    keys: arr(providerKey),
  },
  ['provider'],
);

const owner = obj({ name: str(), budgets, rate_limit: rateLimit }, ['name']);

const team = obj(
  {
    name: str(),
    customers: stringList('customers linked to the team (enterprise), by name'),
    budgets,
    rate_limit: rateLimit,
  },
  ['name'],
);

const virtualKey = obj(
  {
    name: str(),
    description: str(),
    is_active: bool(),
    expires_at: nullable(str('RFC 3339')),
    team: nullable(str('the owning team, by name')),
    customer: nullable(str('the owning customer, by name')),
    provider_configs: arr(
      obj(
        {
          provider: str(),
          weight: nullable(num(undefined, 0)),
          allowed_models: stringList('["*"]: every model'),
          blacklisted_models: stringList(),
          keys: stringList('provider keys by name (["*"]: every key)'),
          budgets,
          rate_limit: rateLimit,
        },
        ['provider'],
      ),
    ),
    budgets,
    rate_limit: rateLimit,
    mcp: arr(obj({ client: str('the MCP client, by name'), tools: stringList('["*"]: every tool') }, ['client'])),
  },
  ['name'],
);

const scopeRef = {
  team: nullable(str('scope team, by name')),
  customer: nullable(str('scope customer, by name')),
  virtual_key: nullable(str('scope virtual key, by name')),
};

const routingRule = obj(
  {
    name: str(),
    description: str(),
    enabled: bool(),
    priority: num(),
    scope: oneOf(['global', 'team', 'customer', 'virtual_key']),
    ...scopeRef,
    cel_expression: str('when the rule applies (CEL)'),
    targets: arr(
      obj({ provider: str(), model: str(), key: nullable(str('a key of the provider, by name')), weight: num() }, [
        'weight',
      ]),
    ),
    fallbacks: stringList('provider/model fallbacks'),
    chain_rule: bool(),
    query: map(any()),
  },
  ['name', 'cel_expression', 'targets'],
);

const modelConfig = obj(
  {
    model_name: str(),
    provider: nullable(str()),
    scope: oneOf(['global', 'virtual_key', 'user']),
    virtual_key: nullable(str('scope virtual key, by name')),
    user_id: nullable(str('scope user id')),
    calendar_aligned: bool(),
    budgets,
    rate_limit: rateLimit,
  },
  ['model_name'],
);

const pricingOverride = obj(
  {
    name: str(),
    scope_kind: str(),
    match_type: oneOf(['exact', 'wildcard']),
    pattern: str(),
    request_types: stringList(),
    provider: nullable(str()),
    provider_key: nullable(str('a key of the provider, by name')),
    virtual_key: nullable(str('by name')),
    user_id: nullable(str()),
    patch: map(num()),
  },
  ['name', 'scope_kind', 'match_type', 'pattern', 'request_types', 'patch'],
);

const mcpClient = obj(
  {
    name: str(),
    connection_type: oneOf(['http', 'sse', 'stdio']),
    connection_string: nullable(str()),
    stdio_config: nullable(obj({ command: str(), args: stringList(), envs: map(secret()) }, ['command'])),
    headers: map(secret()),
    tools_to_execute: stringList(),
    tools_to_auto_execute: stringList(),
    tool_pricing: map(num()),
    tool_execution_timeout: int(),
    allow_on_all_virtual_keys: bool(),
    disabled: bool(),
    virtual_keys: arr(obj({ virtual_key: str('by name'), tools: stringList() }, ['virtual_key'])),
  },
  ['name', 'connection_type'],
);

const accessProfile = obj(
  {
    name: str(),
    description: str(),
    is_active: bool(),
    tags: stringList(),
    calendar_aligned: bool(),
    provider_configs: arr(any()),
    budgets: arr(any()),
    rate_limit: rateLimit,
    mcp_servers: stringList('MCP clients granted whole, by name'),
    mcp_tool_groups: stringList('tool group ids'),
    mcp_tool_overrides: arr(
      obj({ client: str('by name'), tool_name: str(), action: oneOf(['include', 'exclude']) }, [
        'client',
        'tool_name',
        'action',
      ]),
    ),
  },
  ['name'],
);

const circuitBreaker = obj(
  {
    name: str(),
    enabled: bool(),
    primary_provider: str(),
    primary_model: str(),
    primary_keys: stringList('keys of the primary provider, by name'),
    fallback_provider: str(),
    fallback_model: str(),
    condition: any('when a response opens the circuit'),
    default_cooldown: str(),
    cooldown_header: nullable(str()),
  },
  ['name', 'primary_provider', 'primary_model', 'fallback_provider', 'fallback_model', 'condition'],
);

const webhook = obj(
  {
    name: str(),
    url: str(),
    description: nullable(str()),
    enabled: bool(),
    headers: map(secret()),
  },
  ['name', 'url'],
);

const plugin = obj({ name: str(), enabled: bool(), order: num(), config: map(any()) }, ['name']);

/** The whole file. */
export const FILE_SHAPE: Shape = obj(
  {
    version: int('the file format version (1)'),
    select: obj({ team: str('this file manages only what this team owns') }, ['team']),
    config: map(any(), 'runtime settings, as PUT /api/config takes them (docs/config.md)'),
    plugins: arr(plugin),
    providers: arr(provider),
    customers: arr(owner),
    teams: arr(team),
    mcp_clients: arr(mcpClient),
    virtual_keys: arr(virtualKey),
    model_configs: arr(modelConfig),
    routing_rules: arr(routingRule),
    pricing_overrides: arr(pricingOverride),
    access_profiles: arr(accessProfile),
    circuit_breakers: arr(circuitBreaker),
    webhooks: arr(webhook),
  },
  ['version'],
  "gatewayctl declarative config: the gateway's management state (docs/automation.md)",
);

/** The JSON Schema file's content. */
export function fileJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://ai-gateway.local/schema/gateway-config.v1.schema.json',
    title: 'AI gateway declarative config, version 1',
    ...jsonSchema(FILE_SHAPE),
    $defs: {
      secret: {
        description: 'A secret as a reference, never a value',
        anyOf: [
          { type: 'string', pattern: '^(env\\.[A-Za-z_][A-Za-z0-9_]*|vault\\.\\S+)$' },
          {
            type: 'object',
            properties: { fromEnv: { type: 'string' } },
            required: ['fromEnv'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { fromFile: { type: 'string' } },
            required: ['fromFile'],
            additionalProperties: false,
          },
        ],
      },
    },
  };
}
