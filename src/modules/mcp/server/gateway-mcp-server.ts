import { Inject, Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type {
  CallToolRequest,
  CallToolResult,
  JSONRPCMessage,
  ListToolsResult,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { APP_VERSION } from '../../../core/version.js';
import { JSONRPC, JsonRpcError } from '../jsonrpc-error.js';
import {
  exposedToolName,
  McpToolCatalog,
  McpToolExecutor,
  splitToolName,
  type ExposedClient,
  type ExposedTool,
} from '../mcp-contract.js';
import { CallerRelays, type Exchange, type Extra, type Scope } from './caller-relay.js';
import { CallerRequests } from './caller-requests.js';
import { McpOffers, pageOf } from './mcp-offers.js';
import { McpSessions } from './mcp-sessions.js';
import { loadedMcpSdk, mcpSdk, type McpSdk } from '../mcp-sdk.js';
import { isPending } from '../../../core/async/maybe-promise.js';

export type { Scope } from './caller-relay.js';

/** Most tools in one `tools/list` page; a longer list continues with `nextCursor`. */
export const TOOLS_PAGE_SIZE = 100;
/** Requests relayed to a server while the caller waits: answered on an SSE stream, so what the server sends meanwhile reaches the caller. */
const STREAMED_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read', 'completion/complete']);

/**
 * The gateway's own MCP server over Streamable HTTP. Each POST is answered by a fresh low-level SDK `Server` and a
 * stateless transport, so any replica answers any request; the session (`Mcp-Session-Id`, issued at `initialize`, see
 * `McpSessions`) carries what later requests need without shared storage. Tools come from the caller's catalog and
 * are called through `McpToolExecutor`; prompts, resources and completions through `McpOffers`. A relayed request
 * (a tool call, a prompt, a resource read, a completion) is answered on an SSE stream that also carries what its
 * server sends meanwhile (`CallerRelays`); the caller's answers to relayed requests and its cancellations arrive in
 * POSTs of their own (`CallerRequests`).
 */
@Injectable()
export class GatewayMcpServer {
  constructor(
    private readonly catalog: McpToolCatalog,
    private readonly executor: McpToolExecutor,
    private readonly offers: McpOffers,
    private readonly relays: CallerRelays,
    private readonly requests: CallerRequests,
    readonly sessions: McpSessions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** 403 when `client` does not serve the caller (unknown, not granted, not connected). */
  assertClient(scope: Scope & { client: string }): void {
    if (this.offers.clientsOf(scope).length > 0) return;
    const caller = scope.caller;
    const who = caller.virtualKey ? `Virtual key '${caller.virtualKey.name}'` : 'A caller without a virtual key';
    throw new GatewayException(403, 'permission_denied', `${who} may not use MCP client '${scope.client}'`, {
      reason: 'policy_access_denied',
      extraFields: { mcp_client: scope.client },
    });
  }

  /**
   * Answers one POST. A body that cannot be a JSON-RPC message or batch is refused first with a GatewayError 400; a
   * session id that is not valid here gets 404. The caller's answers and notifications are taken here (202); requests
   * go to a fresh SDK server, whose transport writes the reply (JSON, or SSE for relayed requests), and JSON-RPC
   * errors (the `Accept` header, malformed messages, unknown methods) are the SDK's.
   */
  async handle(request: FastifyRequest, reply: FastifyReply, scope: Scope): Promise<void> {
    const body = request.body;
    if (!isJsonRpcPayload(body)) {
      throw GatewayException.validation(
        'body',
        'The body must be a JSON-RPC 2.0 message (an object) or a batch of them',
      );
    }
    const messages = (Array.isArray(body) ? body : [body]) as Array<Record<string, unknown>>;
    const initialize = messages.find((m) => m.method === 'initialize');
    const session = initialize
      ? this.sessions.issue(scope.caller, scope.client, initialize.params)
      : this.sessions.resolve(request.headers['mcp-session-id'], scope.caller, scope.client);
    if (messages.every((m) => m.id === undefined || m.method === undefined)) {
      // Only answers and notifications: nothing to answer but 202.
      await this.takeNotifications(messages, session?.id);
      void reply.code(202).send();
      return;
    }
    const loading = mcpSdk();
    const sdk = isPending(loading) ? await loading : loading;
    const exchange: Exchange = { scope, session };
    const methods = new Set(messages.map((m) => m.method).filter((m): m is string => typeof m === 'string'));
    const server = this.serverFor(exchange, methods, sdk);
    const streamed = messages.some((m) => typeof m.method === 'string' && STREAMED_METHODS.has(m.method));
    const transport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !streamed,
    });
    const raw = hijack(reply);
    if (streamed) coalesceWrites(raw);
    if (initialize && session) raw.setHeader('mcp-session-id', session.id);
    raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, raw, body);
    } catch (err) {
      // Past hijack() the global filter cannot answer: the GatewayError is written here (500, no internals).
      const { status, body: error } = toErrorResponse(err);
      this.logger.error({ err, event_id: error.event_id, request_id: request.id }, 'MCP server request failed');
      if (raw.headersSent) {
        raw.destroy();
        return;
      }
      raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(error));
    }
  }

  /** Answers to relayed requests go to the request waiting for them; a cancellation stops the caller's request. */
  private async takeNotifications(messages: Array<Record<string, unknown>>, sessionId: string | undefined) {
    const answers = messages.filter((m) => m.method === undefined) as unknown as JSONRPCMessage[];
    if (answers.length > 0) await this.requests.answer(answers, sessionId);
    for (const message of messages) {
      if (message.method !== 'notifications/cancelled' || sessionId === undefined) continue;
      const params = message.params as { requestId?: string | number; reason?: string } | undefined;
      if (params?.requestId !== undefined) await this.requests.cancel(sessionId, params.requestId, params.reason);
    }
  }

  /** What this server declares: tools and logging always; prompts, resources and completions where the scope has them. */
  capabilitiesFor(scope: Scope): ServerCapabilities {
    const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
    const upstream = scope.client === undefined ? undefined : this.offers.clientsOf(scope)[0]?.capabilities;
    if (!upstream || upstream.prompts) capabilities.prompts = { listChanged: true };
    if (!upstream || upstream.resources) {
      capabilities.resources = { subscribe: !upstream || upstream.resources?.subscribe === true, listChanged: true };
    }
    if (!upstream || upstream.completions) capabilities.completions = {};
    return capabilities;
  }

  /**
   * A low-level SDK `Server` for one request (answering the methods it carries; registering a handler costs the SDK a
   * schema walk, and a request carries one or two methods) or one GET stream (which answers none). The SDK is loaded
   * by then (`mcpSdk()`).
   */
  serverFor(exchange: Exchange, methods: ReadonlySet<string> = new Set(), sdk: McpSdk = loadedMcpSdk()): Server {
    const { scope } = exchange;
    const capabilities = this.capabilitiesFor(scope);
    const {
      CallToolRequestSchema,
      CompleteRequestSchema,
      GetPromptRequestSchema,
      ListPromptsRequestSchema,
      ListResourcesRequestSchema,
      ListResourceTemplatesRequestSchema,
      ListToolsRequestSchema,
      ReadResourceRequestSchema,
      SetLevelRequestSchema,
      SubscribeRequestSchema,
      UnsubscribeRequestSchema,
    } = sdk.types;
    const server = new sdk.Server(
      { name: 'ai-gateway', version: APP_VERSION },
      {
        capabilities,
        jsonSchemaValidator: sdk.schemaValidator,
        instructions: scope.client
          ? `Tools, prompts and resources of the MCP client '${scope.client}', through the AI gateway.`
          : 'Tools, prompts and resources of the MCP clients this caller may use, named <client>-<name>, ' +
            'through the AI gateway.',
      },
    );
    // Only the methods this request carries get a handler; one the scope does not offer gets none (-32601).
    const wants = (method: string, offered: unknown = true) => offered !== undefined && methods.has(method);
    if (wants('tools/list')) {
      server.setRequestHandler(ListToolsRequestSchema, (req) => this.list(scope, req.params?.cursor));
    }
    if (wants('tools/call')) {
      server.setRequestHandler(CallToolRequestSchema, (req, extra) => this.call(exchange, server, req.params, extra));
    }
    if (wants('logging/setLevel')) {
      server.setRequestHandler(SetLevelRequestSchema, async (req) => {
        if (exchange.session) await this.sessions.setLevel(exchange.session, req.params.level);
        return {};
      });
    }
    if (wants('prompts/list', capabilities.prompts)) {
      server.setRequestHandler(ListPromptsRequestSchema, (req) => {
        return pageOf('prompts', this.offers.prompts(scope), req.params?.cursor);
      });
    }
    if (wants('prompts/get', capabilities.prompts)) {
      server.setRequestHandler(GetPromptRequestSchema, (req, extra) =>
        this.offers.getPrompt(exchange, server, req.params, extra),
      );
    }
    if (wants('resources/list', capabilities.resources)) {
      server.setRequestHandler(ListResourcesRequestSchema, (req) => {
        return pageOf('resources', this.offers.resources(scope), req.params?.cursor);
      });
    }
    if (wants('resources/templates/list', capabilities.resources)) {
      server.setRequestHandler(ListResourceTemplatesRequestSchema, (req) => {
        return pageOf('resourceTemplates', this.offers.resourceTemplates(scope), req.params?.cursor);
      });
    }
    if (wants('resources/read', capabilities.resources)) {
      server.setRequestHandler(ReadResourceRequestSchema, (req, extra) =>
        this.offers.readResource(exchange, server, req.params.uri, extra),
      );
    }
    const subscriptions = capabilities.resources?.subscribe ? true : undefined;
    if (wants('resources/subscribe', subscriptions)) {
      server.setRequestHandler(SubscribeRequestSchema, (req) => this.offers.subscribe(exchange, req.params.uri, true));
    }
    if (wants('resources/unsubscribe', subscriptions)) {
      server.setRequestHandler(UnsubscribeRequestSchema, (req) =>
        this.offers.subscribe(exchange, req.params.uri, false),
      );
    }
    if (wants('completion/complete', capabilities.completions)) {
      server.setRequestHandler(CompleteRequestSchema, (req, extra) =>
        this.offers.complete(exchange, server, req.params, extra),
      );
    }
    return server;
  }

  private async toolsOf(scope: Scope): Promise<readonly ExposedTool[]> {
    const listed = this.catalog.toolsFor(scope.caller);
    const tools = isPending(listed) ? await listed : listed;
    return scope.client === undefined ? tools : tools.filter((t) => t.clientName === scope.client);
  }

  /** Every tool `scope` sees, as `tools/list` pages them: MCP tools sorted by the name the caller sees. */
  async visibleTools(scope: Scope): Promise<Tool[]> {
    const tools = (await this.toolsOf(scope)).map((t) => toMcpTool(t, scope.client !== undefined));
    return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The clients `scope` reaches (for the GET streams' change and notification checks). */
  clientsOf(scope: Scope): readonly ExposedClient[] {
    return this.offers.clientsOf(scope);
  }

  /** The prompts, resources and templates `scope` sees (for the GET streams' change checks). */
  offersOf(scope: Scope) {
    return {
      prompts: this.offers.prompts(scope),
      resources: this.offers.resources(scope),
      resourceTemplates: this.offers.resourceTemplates(scope),
    };
  }

  /** Sorted by the name the caller sees; the cursor is the last name of the previous page (base64url). */
  async list(scope: Scope, cursor: string | undefined): Promise<ListToolsResult> {
    const tools = await this.visibleTools(scope);
    let start = 0;
    if (cursor !== undefined) {
      const after = Buffer.from(cursor, 'base64url').toString('utf8');
      if (after === '' || Buffer.from(after, 'utf8').toString('base64url') !== cursor) {
        throw new JsonRpcError(JSONRPC.invalidParams, 'Invalid cursor');
      }
      start = tools.findIndex((t) => t.name > after);
      if (start < 0) start = tools.length;
    }
    const page = tools.slice(start, start + TOOLS_PAGE_SIZE);
    const last = page[page.length - 1];
    const more = start + TOOLS_PAGE_SIZE < tools.length && last !== undefined;
    return more ? { tools: page, nextCursor: Buffer.from(last.name, 'utf8').toString('base64url') } : { tools: page };
  }

  /**
   * A tool the caller may not use (or that does not exist) is a JSON-RPC error -32602, as the MCP spec answers an
   * unknown tool, its message saying which, with the GatewayError body (403 `tool_blocked`) as `data`; a tool that
   * fails, times out or cannot be reached is an `isError: true` result. What the tool's server sends during the call
   * (progress, log lines, requests of the caller) is relayed; the caller's `_meta` is passed on.
   */
  async call(
    exchange: Exchange,
    server: Server,
    params: CallToolRequest['params'],
    extra: Extra,
  ): Promise<CallToolResult> {
    const { scope } = exchange;
    const name = scope.client === undefined ? params.name : exposedToolName(scope.client, params.name);
    const { progressToken: _token, ...meta } = params._meta ?? {};
    const client = scope.client ?? splitToolName(name)?.client ?? '';
    return this.relays.running(exchange, extra, async (signal) => {
      try {
        const { result } = await this.executor.execute({
          ...scope.caller,
          name,
          arguments: params.arguments ?? {},
          signal,
          clientScope: scope.client,
          relay: this.relays.relayFor(exchange, server, extra, client),
          ...(Object.keys(meta).length > 0 ? { meta } : {}),
        });
        return result;
      } catch (err) {
        if (err instanceof GatewayException && err.status === 403) {
          throw new JsonRpcError(JSONRPC.invalidParams, err.message, toErrorResponse(err).body);
        }
        throw err;
      }
    });
  }
}

/**
 * Hands the response over to the SDK transport. After hijack() Fastify's onSend hooks no longer run: the headers they
 * would add (x-request-id, CORS, security) are already on the reply, so they go out on the raw response.
 */
export function hijack(reply: FastifyReply): FastifyReply['raw'] {
  const raw = reply.raw;
  const head = reply.getHeaders();
  for (const name in head) {
    const value = head[name];
    if (value !== undefined) raw.setHeader(name, value);
  }
  reply.hijack();
  return raw;
}

/**
 * The SDK transport's web-stream adapter sends an SSE answer's headers on their own (`flushHeaders`) and each event
 * in a socket write of its own, then the end in another: three writes for a tool call whose only event is its result,
 * where a JSON answer takes one (at one caller, about a quarter of the gateway's CPU per call went to those writes).
 * Here the headers leave with the first event, and what is written before the pending callbacks of this moment have
 * run leaves in one write (the socket is corked until the next tick: the adapter's end follows its last event within
 * the same run of promise callbacks), so a relayed call without progress costs one write, and events the server sends
 * over time still go out as they come.
 */
function coalesceWrites(raw: FastifyReply['raw']): void {
  raw.flushHeaders = () => undefined;
  const write = raw.write.bind(raw) as (...args: unknown[]) => boolean;
  let corked = false;
  raw.write = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      raw.cork();
      process.nextTick(() => {
        corked = false;
        raw.uncork();
      });
    }
    return write(...args);
  }) as typeof raw.write;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonRpcPayload(body: unknown): boolean {
  return isObject(body) || (Array.isArray(body) && body.length > 0 && body.every(isObject));
}

function toMcpTool(tool: ExposedTool, ownName: boolean): Tool {
  const schema = tool.tool.inputSchema;
  const inputSchema = (schema.type === 'object' ? schema : { ...schema, type: 'object' }) as Tool['inputSchema'];
  const out: Tool = { name: ownName ? tool.tool.name : tool.name, inputSchema };
  if (tool.tool.description !== undefined) out.description = tool.tool.description;
  return out;
}
