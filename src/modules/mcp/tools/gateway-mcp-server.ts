import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { APP_VERSION } from '../../../core/version.js';
import { exposedToolName, McpToolCatalog, McpToolExecutor, type ExposedTool, type McpCaller } from '../mcp-contract.js';
import type { ResolvedCaller } from './mcp-caller.js';

/** Most tools in one `tools/list` page; a longer list continues with `nextCursor`. */
export const TOOLS_PAGE_SIZE = 100;

/**
 * One JSON-schema validator for every per-request `Server` (the SDK builds an Ajv instance per Server otherwise, a
 * measurable share of a call; this server never elicits, which is what it validates).
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** What one `/mcp` request may reach: the caller's tools, or one client's (`/mcp/{client}`). */
export interface Scope {
  caller: ResolvedCaller;
  /** Set on `/mcp/{client}`: only this client's tools, listed and called by their own (unprefixed) names. */
  client?: string;
}

/**
 * The gateway's own MCP server: stateless Streamable HTTP (no session; a fresh low-level SDK `Server` and transport per
 * POST, so any replica answers any request). `tools/list` is the caller's catalog (`McpToolCatalog.toolsFor`, sorted
 * by name, 100 a page); `tools/call` goes through `McpToolExecutor` (allow-list, log row, price).
 */
@Injectable()
export class GatewayMcpServer {
  constructor(
    private readonly catalog: McpToolCatalog,
    private readonly executor: McpToolExecutor,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** 403 when the caller may use no tool of `client` (unknown, not granted, not connected, or nothing to execute). */
  async assertClient(caller: McpCaller, client: string): Promise<void> {
    const tools = await this.toolsOf({ caller });
    if (tools.some((t) => t.clientName === client)) return;
    const who = caller.virtualKey ? `Virtual key '${caller.virtualKey.name}'` : 'A caller without a virtual key';
    throw new GatewayException(403, 'permission_denied', `${who} may not use MCP client '${client}'`, {
      reason: 'policy_access_denied',
      extraFields: { mcp_client: client },
    });
  }

  /**
   * Answers one POST: hijacks the Fastify reply and lets the SDK transport write it. A body that cannot be a JSON-RPC
   * message or batch (not an object, or an empty or non-object array) is refused first with a GatewayError 400;
   * everything else (Accept header, JSON-RPC shape, methods) the SDK answers with JSON-RPC errors.
   */
  async handle(request: FastifyRequest, reply: FastifyReply, scope: Scope): Promise<void> {
    if (!isJsonRpcPayload(request.body)) {
      throw GatewayException.validation(
        'body',
        'The body must be a JSON-RPC 2.0 message (an object) or a batch of them',
      );
    }
    const server = this.serverFor(scope);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const raw = hijack(reply);
    raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, raw, request.body);
    } catch (err) {
      // Past hijack() the global filter cannot answer: the GatewayError is written here (500, no internals).
      const { status, body } = toErrorResponse(err);
      this.logger.error({ err, event_id: body.event_id, request_id: request.id }, 'MCP server request failed');
      if (raw.headersSent) {
        raw.destroy();
        return;
      }
      raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    }
  }

  /** A low-level SDK `Server` answering `tools/list` and `tools/call` for `scope` (one per request or stream). */
  serverFor(scope: Scope): Server {
    const server = new Server(
      { name: 'ai-gateway', version: APP_VERSION },
      {
        // Sent on the standalone GET stream (ToolListStreams) when the tools the stream's caller sees change.
        capabilities: { tools: { listChanged: true } },
        jsonSchemaValidator: SCHEMA_VALIDATOR,
        instructions: scope.client
          ? `Tools of the MCP client '${scope.client}', through the AI gateway.`
          : 'Tools of the MCP clients this caller may use, named <client>-<tool>, through the AI gateway.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, (req) => this.list(scope, req.params?.cursor));
    server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
      this.call(scope, req.params.name, req.params.arguments ?? {}, extra.signal),
    );
    return server;
  }

  private async toolsOf(scope: Scope): Promise<readonly ExposedTool[]> {
    const listed = this.catalog.toolsFor(scope.caller);
    const tools = listed instanceof Promise ? await listed : listed;
    return scope.client === undefined ? tools : tools.filter((t) => t.clientName === scope.client);
  }

  /** Every tool `scope` sees, as `tools/list` pages them: MCP tools sorted by the name the caller sees. */
  async visibleTools(scope: Scope): Promise<Tool[]> {
    const tools = (await this.toolsOf(scope)).map((t) => toMcpTool(t, scope.client !== undefined));
    return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Sorted by the name the caller sees; the cursor is the last name of the previous page (base64url). */
  async list(scope: Scope, cursor: string | undefined): Promise<ListToolsResult> {
    const tools = await this.visibleTools(scope);
    let start = 0;
    if (cursor !== undefined) {
      const after = Buffer.from(cursor, 'base64url').toString('utf8');
      if (after === '' || Buffer.from(after, 'utf8').toString('base64url') !== cursor) {
        throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
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
   * unknown tool, with the GatewayError body (403 `tool_blocked`) as `data`; a tool that fails, times out or cannot be
   * reached is an `isError: true` result.
   */
  async call(scope: Scope, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const exposed = scope.client === undefined ? name : exposedToolName(scope.client, name);
    try {
      const { result } = await this.executor.execute({ ...scope.caller, name: exposed, arguments: args, signal });
      return result;
    } catch (err) {
      if (err instanceof GatewayException && err.status === 403) {
        throw new McpError(ErrorCode.InvalidParams, err.message.replace(exposed, name), toErrorResponse(err).body);
      }
      throw err;
    }
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
