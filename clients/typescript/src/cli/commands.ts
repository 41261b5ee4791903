import { LOG_FILTERS, MCP_LOG_FILTERS, RESOURCES, type ResourceSpec } from './resource-specs.js';
import type { CommandSpec, Options } from './spec.js';

/** Options every command takes. */
export const GLOBAL_OPTIONS: Options = {
  output: {
    type: 'string',
    short: 'o',
    value: '<format>',
    description: 'table (default), json or yaml',
    choices: ['table', 'json', 'yaml'],
  },
  profile: { type: 'string', value: '<name>', description: 'profile of the profile file to use (GATEWAY_PROFILE)' },
  url: { type: 'string', value: '<url>', description: "the gateway's address (GATEWAY_URL)" },
  help: { type: 'boolean', short: 'h', description: 'show help' },
};

const BODY_OPTIONS: Options = {
  file: { type: 'string', short: 'f', value: '<file>', description: 'the body from a JSON or YAML file (- for stdin)' },
  data: { type: 'string', short: 'd', value: '<json>', description: 'the body as JSON' },
  set: {
    type: 'string',
    multiple: true,
    value: '<path=value>',
    description: 'set one field (dotted path; the value is read as JSON when it parses, else as a string)',
  },
};

const CONFIG_FILE = {
  type: 'string',
  short: 'f',
  multiple: true,
  value: '<file>',
  description: 'a config file (repeat to merge several)',
} as const;

const resourceHandler = () => import('./commands/resource.js').then((m) => m.run);

function resourceCommand(spec: ResourceSpec): CommandSpec {
  const target = spec.underProvider
    ? ['<provider>', '<key-id-or-name>']
    : [`<${spec.id === 'name' ? 'name' : 'id-or-name'}>`];
  const sub: Record<string, CommandSpec> = {
    list: {
      name: 'list',
      summary: `list ${spec.noun}s`,
      options: { ...spec.listOptions },
      load: resourceHandler,
    },
    get: { name: 'get', summary: `show one ${spec.noun}`, args: target, load: resourceHandler },
    create: {
      name: 'create',
      summary: `create a ${spec.noun}`,
      args: spec.underProvider ? ['<provider>'] : [],
      options: BODY_OPTIONS,
      load: resourceHandler,
    },
    update: {
      name: 'update',
      summary: `change a ${spec.noun} (the fields given)`,
      args: target,
      options: BODY_OPTIONS,
      load: resourceHandler,
    },
    delete: { name: 'delete', summary: `delete a ${spec.noun}`, args: target, load: resourceHandler },
  };
  const subcommands = spec.ops.map((op) => sub[op]!);
  if (spec.command === 'virtual-keys') {
    subcommands.push({
      name: 'rotate',
      summary: 'give a virtual key a new value (shown once)',
      args: ['<id-or-name>'],
      options: {
        'grace-period': {
          type: 'string',
          value: '<duration>',
          description: 'how long the old value keeps working (e.g. 1h)',
        },
      },
      load: resourceHandler,
    });
  }
  if (spec.command === 'access-profiles') {
    subcommands.push({
      name: 'propagate',
      summary: "carry a template's changes to its users' copies, following the job to its end",
      args: ['<id-or-name>'],
      options: {
        fields: {
          type: 'string',
          value: '<a,b>',
          description:
            'fields to copy: provider_configs, budgets, rate_limit, mcp_tool_groups, mcp_servers, mcp_tool_overrides',
        },
        users: { type: 'string', value: '<ids>', description: 'comma-separated user ids (default: every holder)' },
        teams: { type: 'string', value: '<ids>', description: 'comma-separated team ids whose members are selected' },
        'reset-usage': { type: 'boolean', description: 'zero usage on the rewritten keys' },
        'dry-run': { type: 'boolean', description: 'compute the result without writing anything' },
      },
      examples: ['gatewayctl access-profiles propagate engineers --fields budgets,rate_limit --dry-run'],
      load: () => import('./commands/propagate.js').then((m) => m.run),
    });
  }
  return {
    name: spec.command,
    summary: spec.summary,
    subcommands,
  };
}

const EXPORT_LOG_OPTIONS: Options = {
  format: {
    type: 'string',
    value: '<jsonl|csv>',
    description: 'output format (default jsonl)',
    choices: ['jsonl', 'csv'],
  },
  out: { type: 'string', value: '<file>', description: 'write to this file (default: stdout)' },
  resume: {
    type: 'boolean',
    description: 'continue an interrupted export into --out from where it stopped (its .cursor file)',
  },
  cursor: { type: 'string', value: '<cursor>', description: 'continue from a cursor an earlier export printed' },
  offset: { type: 'string', value: '<n>', description: 'skip the first n matching rows (oldest first)' },
  'page-size': { type: 'string', value: '<n>', description: 'rows per request (1-1000, default 1000)' },
  progress: { type: 'boolean', description: 'show progress on stderr even when it is not a terminal' },
  'no-progress': { type: 'boolean', description: 'no progress on stderr' },
};

const TAIL_OPTIONS: Options = {
  limit: { type: 'string', value: '<n>', description: 'stop after n rows' },
  timeout: { type: 'string', value: '<seconds>', description: 'stop after this long' },
};

export const ROOT: CommandSpec = {
  name: 'gatewayctl',
  summary: "the AI gateway's command line",
  description:
    'Drives the management API with a scoped management key. Connection: --url or GATEWAY_URL, and ' +
    'GATEWAY_API_KEY (a management key or session token) or GATEWAY_SETUP_TOKEN, or a profile of the profile file ' +
    '(GATEWAY_PROFILE_FILE, default ~/.config/gatewayctl/profiles.yaml, mode 0600). Exit codes: 0 ok, 1 the API ' +
    'refused (its GatewayError on stderr) or could not be reached, 2 usage.',
  subcommands: [
    {
      name: 'status',
      summary: 'version, edition, who am I and my permissions',
      load: () => import('./commands/status.js').then((m) => m.run),
    },
    ...RESOURCES.map(resourceCommand),
    {
      name: 'config',
      summary: 'runtime settings',
      subcommands: [
        { name: 'get', summary: 'show the runtime settings and where each comes from', load: resourceHandler },
        {
          name: 'update',
          summary: 'change runtime settings (a partial object; null resets a key)',
          options: BODY_OPTIONS,
          load: resourceHandler,
        },
      ],
    },
    {
      name: 'logs',
      summary: 'request logs',
      subcommands: [
        {
          name: 'export',
          summary: 'stream matching rows, oldest first, as JSONL or CSV (resumable)',
          options: { ...LOG_FILTERS, ...EXPORT_LOG_OPTIONS },
          examples: [
            'gatewayctl logs export --start-time 2026-11-01T00:00:00Z --out november.jsonl',
            'gatewayctl logs export --out november.jsonl --resume',
            'gatewayctl logs export --providers openai --format csv > openai.csv',
          ],
          load: () => import('./commands/export-logs.js').then((m) => m.runRequestLogs),
        },
        {
          name: 'tail',
          summary: 'follow new rows as they are logged (through /ws)',
          options: {
            providers: LOG_FILTERS.providers!,
            models: LOG_FILTERS.models!,
            status: LOG_FILTERS.status!,
            objects: LOG_FILTERS.objects!,
            'virtual-key-ids': LOG_FILTERS['virtual-key-ids']!,
            'team-ids': LOG_FILTERS['team-ids']!,
            'customer-ids': LOG_FILTERS['customer-ids']!,
            ...TAIL_OPTIONS,
          },
          load: () => import('./commands/tail.js').then((m) => m.runRequestLogs),
        },
      ],
    },
    {
      name: 'mcp-logs',
      summary: 'MCP tool logs',
      subcommands: [
        {
          name: 'export',
          summary: 'stream matching tool logs, oldest first, as JSONL or CSV (resumable)',
          options: { ...MCP_LOG_FILTERS, ...EXPORT_LOG_OPTIONS },
          load: () => import('./commands/export-logs.js').then((m) => m.runMcpLogs),
        },
        {
          name: 'tail',
          summary: 'follow tool calls as they end (through /ws)',
          options: {
            'tool-names': MCP_LOG_FILTERS['tool-names']!,
            'server-labels': MCP_LOG_FILTERS['server-labels']!,
            status: MCP_LOG_FILTERS.status!,
            'virtual-key-ids': MCP_LOG_FILTERS['virtual-key-ids']!,
            ...TAIL_OPTIONS,
          },
          load: () => import('./commands/tail.js').then((m) => m.runMcpLogs),
        },
      ],
    },
    {
      name: 'export',
      summary: 'write the live management state as a declarative config file (secrets as references)',
      options: {
        out: { type: 'string', value: '<file>', description: 'write to this file (default: stdout)' },
        select: { type: 'string', value: '<team>', description: 'only what this team owns' },
      },
      examples: ['gatewayctl export > gateway.yaml'],
      load: () => import('./commands/declarative.js').then((m) => m.runExport),
    },
    {
      name: 'diff',
      summary: 'print the plan that would make the gateway match the files',
      options: {
        file: CONFIG_FILE,
        prune: { type: 'boolean', description: 'also plan deleting what the files do not name' },
        select: { type: 'string', value: '<team>', description: 'only what this team owns' },
        'exit-code': { type: 'boolean', description: 'exit 3 when the plan has changes' },
      },
      examples: ['gatewayctl diff -f gateway.yaml'],
      load: () => import('./commands/declarative.js').then((m) => m.runDiff),
    },
    {
      name: 'apply',
      summary: 'make the gateway match the files, in dependency order',
      options: {
        file: CONFIG_FILE,
        prune: { type: 'boolean', description: 'also delete what the files do not name' },
        'dry-run': { type: 'boolean', description: 'print the plan and write nothing' },
        select: { type: 'string', value: '<team>', description: 'only what this team owns' },
        'write-keys': {
          type: 'string',
          value: '<file>',
          description: 'write created virtual key values here (mode 0600) instead of printing them',
        },
      },
      examples: ['gatewayctl apply -f gateway.yaml --dry-run', 'gatewayctl apply -f base.yaml -f team-ml.yaml --prune'],
      load: () => import('./commands/declarative.js').then((m) => m.runApply),
    },
    {
      name: 'profile',
      summary: 'connection profiles (the profile file, mode 0600)',
      subcommands: [
        { name: 'list', summary: 'list profiles', load: () => import('./commands/profile.js').then((m) => m.run) },
        {
          name: 'set',
          summary: 'create or change a profile (the key is read from stdin or an environment variable)',
          args: ['<name>'],
          options: {
            'gateway-url': { type: 'string', value: '<url>', description: "the gateway's address" },
            'api-key-env': {
              type: 'string',
              value: '<var>',
              description: 'read the management key from this environment variable',
            },
            'api-key-stdin': { type: 'boolean', description: 'read the management key from stdin' },
            'setup-token-env': {
              type: 'string',
              value: '<var>',
              description: 'read a setup token from this environment variable',
            },
            use: { type: 'boolean', description: 'make it the current profile' },
          },
          load: () => import('./commands/profile.js').then((m) => m.run),
        },
        {
          name: 'use',
          summary: 'make a profile the current one',
          args: ['<name>'],
          load: () => import('./commands/profile.js').then((m) => m.run),
        },
      ],
    },
    {
      name: 'completion',
      summary: 'print a shell completion script (bash, zsh or fish)',
      args: ['<shell>'],
      examples: [
        'source <(gatewayctl completion bash)',
        'gatewayctl completion fish > ~/.config/fish/completions/gatewayctl.fish',
      ],
      load: () => import('./commands/completion.js').then((m) => m.run),
    },
  ],
};
