import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';

/**
 * The reference upstream MCP server of the tests: an official SDK `Server` (low-level, so every list is exactly what
 * the MCP conformance kit 0.1.16 expects, JSON Schema 2020-12 included) behind stateful Streamable HTTP on loopback,
 * implementing what the kit's 30 server scenarios call: tools (text, image, audio, embedded resource, mixed content,
 * an error result, log and progress notifications during a call, sampling and elicitation requests back to the
 * caller), resources (static text and binary, a template, subscriptions), prompts, completions, logging, and
 * DNS-rebinding protection (a Host or Origin that is not loopback gets 403). The kit run straight at it passes every
 * scenario (test/mcp/conformance.e2e-spec.ts), so what the gateway relays is judged against a server that passes.
 *
 * Beyond the kit, for the gateway's own tests: `slow` {ms} (answers after ms unless cancelled; `events` records the
 * cancellation), `ask_roots` (asks the caller for its roots), `log_unrelated` (a log notification on the standalone
 * stream, tied to no request), `notifyUpdated(uri)` (sends `notifications/resources/updated` to every session that
 * subscribed to it).
 */
export interface ReferenceServer {
  url: string;
  /** What the server saw: `cancelled:<tool>`, `subscribe:<uri>`, `unsubscribe:<uri>`, `level:<level>`, `progressToken:<t>`. */
  events: string[];
  /** Sends `notifications/resources/updated` for `uri` to each session subscribed to it; resolves to how many. */
  notifyUpdated(uri: string): Promise<number>;
  close(): Promise<void>;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
const NO_ARGS = { type: 'object' as const, properties: {} };
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
interface ToolContext {
  extra: Extra;
  events: string[];
  server: Server;
}
interface ToolSpec extends Tool {
  run: (args: Record<string, unknown>, ctx: ToolContext) => CallToolResult | Promise<CallToolResult>;
}

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    });
  });

async function elicit(extra: Extra, params: Record<string, unknown>): Promise<CallToolResult> {
  const result = await extra.sendRequest({ method: 'elicitation/create', params } as ServerRequest, ElicitResultSchema);
  return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
}

const TOOLS: ToolSpec[] = [
  {
    name: 'test_simple_text',
    description: 'Returns simple text content',
    inputSchema: NO_ARGS,
    run: () => text('This is a simple text response for testing.'),
  },
  {
    name: 'test_image_content',
    description: 'Returns image content',
    inputSchema: NO_ARGS,
    run: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  },
  {
    name: 'test_audio_content',
    description: 'Returns audio content',
    inputSchema: NO_ARGS,
    run: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  },
  {
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource',
    inputSchema: NO_ARGS,
    run: () => ({
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource.' },
        },
      ],
    }),
  },
  {
    name: 'test_multiple_content_types',
    description: 'Returns text, image and resource content',
    inputSchema: NO_ARGS,
    run: () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data"}' },
        },
      ],
    }),
  },
  {
    name: 'test_tool_with_logging',
    description: 'Sends three info log notifications 50 ms apart during the call',
    inputSchema: NO_ARGS,
    run: async (_args, { extra }) => {
      for (const [i, data] of [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ].entries()) {
        if (i > 0) await sleep(50);
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
      }
      return text('Tool with logging executed successfully');
    },
  },
  {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100 when the call carries a progress token',
    inputSchema: NO_ARGS,
    run: async (_args, { extra, events }) => {
      const token = extra._meta?.progressToken;
      events.push(`progressToken:${String(token)}`);
      for (const [i, progress] of [0, 50, 100].entries()) {
        if (i > 0) await sleep(50);
        if (token === undefined) continue;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress, total: 100, message: `step ${progress}` },
        });
      }
      return text('Tool with progress executed successfully');
    },
  },
  {
    name: 'test_error_handling',
    description: 'Always returns an error result',
    inputSchema: NO_ARGS,
    run: () => ({ ...text('This tool intentionally returns an error for testing'), isError: true }),
  },
  {
    name: 'test_sampling',
    description: 'Asks the caller for an LLM completion of prompt',
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    run: async (args, { extra }) => {
      const result = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
            maxTokens: 100,
          },
        },
        CreateMessageResultSchema,
      );
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return text(`LLM response: ${content?.type === 'text' ? content.text : 'no text'}`);
    },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the caller for input',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    run: (args, { extra }) =>
      elicit(extra, {
        message: String(args.message),
        requestedSchema: {
          type: 'object',
          properties: { response: { type: 'string', description: "User's response" } },
          required: ['response'],
        },
      }),
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicitation with a default for every primitive type (SEP-1034)',
    inputSchema: NO_ARGS,
    run: (_args, { extra }) =>
      elicit(extra, {
        message: 'Review the fields (defaults filled in)',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      }),
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicitation with the five enum schema forms (SEP-1330)',
    inputSchema: NO_ARGS,
    run: (_args, { extra }) => {
      const choices = (prefix: string, title: string) =>
        [1, 2, 3].map((n) => ({ const: `${prefix}${n}`, title: `${title} ${n}` }));
      return elicit(extra, {
        message: 'Pick options',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: { type: 'string', oneOf: choices('value', 'Option') },
            legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['One', 'Two', 'Three'] },
            untitledMulti: {
              type: 'array',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: { type: 'array', minItems: 1, maxItems: 3, items: { anyOf: choices('value', 'Choice') } },
          },
          required: [],
        },
      });
    },
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    run: (args) => text(`called with ${JSON.stringify(args)}`),
  },
  {
    name: 'slow',
    description: 'Answers after ms, unless the call is cancelled',
    inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
    run: async (args, { extra, events }) => {
      try {
        await sleep(Number(args.ms), extra.signal);
      } catch {
        events.push('cancelled:slow');
        throw new McpError(ErrorCode.RequestTimeout, 'cancelled');
      }
      return text(`slept ${String(args.ms)}`);
    },
  },
  {
    name: 'ask_roots',
    description: "Lists the caller's roots",
    inputSchema: NO_ARGS,
    run: async (_args, { extra }) => {
      const result = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
      return text(result.roots.map((r) => r.uri).join(','));
    },
  },
  {
    name: 'log_unrelated',
    description: 'Sends a warning log notification tied to no request (the standalone stream)',
    inputSchema: NO_ARGS,
    run: async (_args, { server }) => {
      await server.notification({ method: 'notifications/message', params: { level: 'warning', data: 'unrelated' } });
      return text('logged');
    },
  },
];

const RESOURCES = [
  { uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain', description: 'A static text resource' },
  { uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png', description: 'A static PNG' },
  { uri: 'test://watched-resource', name: 'watched-resource', mimeType: 'text/plain', description: 'Subscribable' },
];
const TEMPLATE = { uriTemplate: 'test://template/{id}/data', name: 'template-data', mimeType: 'application/json' };

function readResource(uri: string): ReadResourceResult {
  if (uri === 'test://static-text' || uri === 'test://watched-resource') {
    return { contents: [{ uri, mimeType: 'text/plain', text: `Contents of ${uri}` }] };
  }
  if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
  const match = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  if (match) {
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: match[1], data: true }) }] };
  }
  throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
}

const PROMPTS = [
  { name: 'test_simple_prompt', description: 'A prompt without arguments' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments',
    arguments: [
      { name: 'arg1', description: 'First argument', required: true },
      { name: 'arg2', description: 'Second argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a resource',
    arguments: [{ name: 'resourceUri', description: 'The URI to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image' },
];

function getPrompt(name: string, args: Record<string, string>): GetPromptResult {
  const user = (content: GetPromptResult['messages'][number]['content']) => ({ role: 'user' as const, content });
  switch (name) {
    case 'test_simple_prompt':
      return { messages: [user({ type: 'text', text: 'This is a simple prompt for testing.' })] };
    case 'test_prompt_with_arguments':
      return {
        messages: [user({ type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` })],
      };
    case 'test_prompt_with_embedded_resource':
      return {
        messages: [
          user({
            type: 'resource',
            resource: { uri: args.resourceUri ?? '', mimeType: 'text/plain', text: 'Embedded resource content.' },
          }),
          user({ type: 'text', text: 'Please process the embedded resource above.' }),
        ],
      };
    case 'test_prompt_with_image':
      return {
        messages: [
          user({ type: 'image', data: PNG, mimeType: 'image/png' }),
          user({ type: 'text', text: 'Please analyze the image above.' }),
        ],
      };
    default:
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  }
}

const COMPLETIONS: Record<string, string[]> = { arg1: ['paris', 'park', 'party'], id: ['123', '456', '789'] };

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  subscriptions: Set<string>;
}

function buildServer(session: () => Session, events: string[]): Server {
  const server = new Server(
    { name: 'reference-server', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map(({ run: _run, ...tool }) => tool) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return tool.run(request.params.arguments ?? {}, { extra, events, server });
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [TEMPLATE] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(request.params.uri));
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    session().subscriptions.add(request.params.uri);
    events.push(`subscribe:${request.params.uri}`);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    session().subscriptions.delete(request.params.uri);
    events.push(`unsubscribe:${request.params.uri}`);
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(request.params.name, request.params.arguments ?? {}),
  );
  server.setRequestHandler(CompleteRequestSchema, (request) => {
    const { name, value } = request.params.argument;
    const values = (COMPLETIONS[name] ?? []).filter((v) => v.startsWith(value));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}

/** 403 unless Host and Origin (when present) are loopback names: the SDK's advice for a local server. */
function rebindingRefusal(req: IncomingMessage): string | undefined {
  const host = new URL(`http://${req.headers.host ?? ''}`).hostname;
  if (!LOOPBACK.has(host)) return `Invalid Host header: ${req.headers.host}`;
  const origin = req.headers.origin;
  if (origin !== undefined && !LOOPBACK.has(new URL(origin).hostname)) return `Invalid Origin header: ${origin}`;
  return undefined;
}

export async function startReferenceServer(): Promise<ReferenceServer> {
  const sessions = new Map<string, Session>();
  const events: string[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refusal = rebindingRefusal(req);
    if (refusal) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal }, id: null }));
      return;
    }
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.transport.handleRequest(req, res);
    if (id !== undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    // A new session (the transport answers anything but initialize with 400 itself).
    const session = {} as Session;
    session.subscriptions = new Set();
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, session),
    });
    session.transport.onclose = () => {
      if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    };
    session.server = buildServer(() => session, events);
    await session.server.connect(session.transport);
    await session.transport.handleRequest(req, res);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    events,
    async notifyUpdated(uri) {
      const subscribed = [...sessions.values()].filter((s) => s.subscriptions.has(uri));
      await Promise.all(subscribed.map((s) => s.server.sendResourceUpdated({ uri })));
      return subscribed.length;
    },
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => undefined)));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
