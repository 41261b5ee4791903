import type {
  CallToolResult,
  LoggingMessageNotification,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { VirtualKeyMcpGrant } from '../../core/auth/principal.js';

/**
 * The seams of the MCP module (issue 13). Three parts meet here:
 * - `clients/` keeps the MCP client registrations, their live connections and tool lists (implements
 *   `McpToolCatalog` and `McpToolTransport`);
 * - `logs/` stores one tool log row per call (implements `McpToolLogWriter`) and serves `/api/mcp-logs`;
 * - `tools/` executes calls for a virtual key (`McpToolExecutor`: allow-list, transport, log, cost) for
 *   `/v1/mcp/tool/execute`, agent mode in chat and responses, and the gateway's own `/mcp` server.
 * Every part injects the abstract classes below, never another part's concrete classes.
 */

/** Separates a client's name from its tool's in the names models and `/mcp` callers see: `<client>-<tool>`. */
export const TOOL_NAME_SEPARATOR = '-';

/** A client name: ASCII letters, digits and `_`, no leading digit (so the first `-` of a tool name ends it). */
export const MCP_CLIENT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function exposedToolName(clientName: string, toolName: string): string {
  return `${clientName}${TOOL_NAME_SEPARATOR}${toolName}`;
}

/** `<client>-<tool>` split at the first `-`; undefined when there is none. */
export function splitToolName(name: string): { client: string; tool: string } | undefined {
  const at = name.indexOf(TOOL_NAME_SEPARATOR);
  if (at <= 0 || at === name.length - 1) return undefined;
  return { client: name.slice(0, at), tool: name.slice(at + 1) };
}

/**
 * What a logged MCP call relayed (the tool log's `mcp_request_type`, the contract's name for it): a tool call, a
 * resource read, a prompt, a completion.
 */
export const MCP_REQUEST_TYPES = ['tool', 'resource', 'prompt', 'completion'] as const;
export type McpRequestType = (typeof MCP_REQUEST_TYPES)[number];

/** A tool as its MCP server lists it. */
export interface McpToolDefinition {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** A tool a virtual key may use, as models and `/mcp` callers see it. */
export interface ExposedTool {
  /** `<client name>-<tool name>`. */
  name: string;
  clientId: string;
  clientName: string;
  tool: McpToolDefinition;
  /** In the client's `tools_to_auto_execute`: agent mode runs it without the caller. */
  autoExecute: boolean;
  /** The client's `tool_pricing` for this tool in USD (0 without a price), charged on success. */
  costUsd: number;
  /** The client's `tool_execution_timeout` in ms (default 30 s). */
  timeoutMs: number;
}

/**
 * A client that serves a caller (the catalog's rule, without the tool narrowing), with what its server offers besides
 * tools: its prompts, resources and resource templates as listed (refreshed on the server's `list_changed`
 * notifications and periodically), and its capabilities from `initialize`.
 */
export interface ExposedClient {
  id: string;
  name: string;
  capabilities: ServerCapabilities;
  prompts: readonly Prompt[];
  resources: readonly Resource[];
  resourceTemplates: readonly ResourceTemplate[];
  /** The client's `tool_execution_timeout` in ms: every relayed request's time limit. */
  timeoutMs: number;
}

/** Who is calling: the virtual key the request was authenticated with (and the MCP grants it carries), if any. */
export interface McpCaller {
  virtualKey?: { id: string; name: string; mcp_grants?: readonly VirtualKeyMcpGrant[] };
}

/**
 * Which tools a caller may use, from memory (rebuilt when a client, its grants or its tool list change; never a
 * database read per call). Rule: a client serves a virtual key when it is not disabled, is `connected`, and either
 * `allow_on_all_virtual_keys`, or a `vk_configs` entry names the key, or the key's own `mcp_grants` name the client;
 * the tools are the client's `tools_to_execute` (`["*"]` all it lists, `[]` none), narrowed by the grants when there
 * are any (a tool any grant lists; a `vk_configs` entry without a list grants all). Without a virtual key only
 * `allow_on_all_virtual_keys` clients serve. Sorted by `name`.
 */
export abstract class McpToolCatalog {
  abstract toolsFor(caller: McpCaller): readonly ExposedTool[] | Promise<readonly ExposedTool[]>;

  /** The clients that serve `caller` (connected, enabled, granted), sorted by name; from memory like `toolsFor`. */
  abstract clientsFor(caller: McpCaller): readonly ExposedClient[];

  /** Whether a connected client's server lists this tool (`<client>-<tool>`), whoever may use it. */
  abstract toolExists(name: string): boolean;

  /**
   * Runs `listener` (synchronously, possibly many times in a row) whenever what `toolsFor` answers may have changed on
   * this replica: a client added, updated or removed here or on another replica, a connection's state or tool list,
   * a virtual key's grants. Returns the function that removes the listener.
   */
  abstract onChange(listener: () => void): () => void;
}

/**
 * What an upstream server sends back while one of the caller's requests runs, passed on to that caller: progress (with
 * the caller's own progress token), log notifications, and requests the server makes of the caller.
 */
export interface McpCallRelay {
  /** Set when the caller asked for progress (`_meta.progressToken`): each `notifications/progress` of the call. */
  progress?(progress: { progress: number; total?: number; message?: string }): void;
  /** A `notifications/message` the server sent during the call. */
  log(params: LoggingMessageNotification['params']): void;
  /**
   * A request the server sent during the call (`sampling/createMessage`, `elicitation/create`, `roots/list`): the
   * caller's answer, or a rejection (an `McpError`) when the caller cannot answer it.
   */
  request(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<object>;
}

/** How one relayed request runs: its time limit, the caller's signal, and where the server's messages go. */
export interface McpCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  relay?: McpCallRelay;
  /** The caller's `_meta`, passed on (its progress token is replaced by one of the gateway's, mapped back). */
  meta?: Record<string, unknown>;
}

/** Requests relayed to a client's server besides tool calls. */
export const RELAYED_METHODS = [
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/get',
  'completion/complete',
] as const;
export type McpRelayedMethod = (typeof RELAYED_METHODS)[number];

/** What a server sends unasked: a resource it was subscribed to changed, or a log line tied to no request. */
export type McpServerNotification =
  | { method: 'notifications/resources/updated'; params: { uri: string } }
  | { method: 'notifications/message'; params: LoggingMessageNotification['params'] };

/** Calls a tool (and relays the other requests) on its server over the client's kept connection. */
export abstract class McpToolTransport {
  /**
   * The server's CallToolResult (an `isError: true` result is returned, not thrown). Throws on transport, JSON-RPC
   * and timeout failures (an `McpCallError` when the cause is known).
   */
  abstract callTool(
    clientId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult>;

  /** The server's result of one relayed request; failures as for `callTool` (a JSON-RPC error keeps its code and data). */
  abstract request(
    clientId: string,
    method: McpRelayedMethod,
    params: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<Record<string, unknown>>;

  /**
   * Keeps `uri` subscribed on the client's server while any caller on this replica wants it (counted; the first
   * subscribes, the last unsubscribes; subscribed again after a reconnect). Rejects as `request` does.
   */
  abstract subscribe(clientId: string, uri: string, options: McpCallOptions): Promise<void>;
  abstract unsubscribe(clientId: string, uri: string): Promise<void>;

  /** Listens to what servers send unasked; returns the function that removes the listener. */
  abstract onServerNotification(listener: (clientId: string, notification: McpServerNotification) => void): () => void;
}

/** Why a call failed before any result: the tool log's `error_details` is built from it. */
export class McpCallError extends Error {
  constructor(
    readonly kind: 'transport' | 'jsonrpc' | 'timeout' | 'disconnected',
    message: string,
    readonly code?: number,
    /** A JSON-RPC error's `data`, passed on to the caller of a relayed request. */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The first write of a call's log row (`status: processing`). */
export interface McpToolLogStart {
  id: string;
  timestamp: Date;
  /** The exposed name (`<client>-<tool>`). */
  tool_name: string;
  /** The client's name. */
  server_label: string;
  /** What was relayed (default `tool`); `tool_name` is then the exposed prompt name, the URI or the completion's ref. */
  mcp_request_type?: McpRequestType;
  virtual_key_id?: string;
  virtual_key_name?: string;
  /** The inference request that asked for the call (agent mode), when there is one. */
  llm_request_id?: string;
  arguments: Record<string, unknown>;
  metadata?: Record<string, string>;
}

/** How a call ended. `error_details` is a GatewayError body. */
export interface McpToolLogEnd {
  status: 'success' | 'error';
  /** The start's kind again (default `tool`), for a row whose start was never written. */
  mcp_request_type?: McpRequestType;
  latency: number;
  result?: unknown;
  error_details?: Record<string, unknown>;
  /** On success only: the tool's price. */
  cost?: number;
}

/** Writes tool log rows off the request path (the core's batched writer; never awaited by a call). */
export abstract class McpToolLogWriter {
  abstract started(entry: McpToolLogStart): void;
  abstract finished(id: string, end: McpToolLogEnd): void;
}

/** One tool call asked for by a caller. */
export interface McpToolCall extends McpCaller {
  /** The exposed name (`<client>-<tool>`). */
  name: string;
  arguments: Record<string, unknown>;
  llmRequestId?: string;
  metadata?: Record<string, string>;
  signal?: AbortSignal;
  /** On `/mcp/{client}`: that client (the caller wrote the tool's name without its prefix; errors name it so). */
  clientScope?: string;
  /** Where the server's messages during the call go (the gateway's own MCP server relays them to its caller). */
  relay?: McpCallRelay;
  /** The caller's `_meta` (`/mcp`), passed on. */
  meta?: Record<string, unknown>;
}

/** One request relayed to a client's server besides tool calls, logged with its kind. */
export interface McpRelayedCall extends McpCaller {
  client: ExposedClient;
  kind: Exclude<McpRequestType, 'tool'>;
  method: McpRelayedMethod;
  params: Record<string, unknown>;
  /** The log row's `tool_name`: the exposed prompt name, the URI, or the completion's ref. */
  logName: string;
  metadata?: Record<string, string>;
  signal?: AbortSignal;
  relay?: McpCallRelay;
}

/**
 * Executes one call for a caller: 403 `model_blocked` with reason `policy_tool_blocked` when the tool is not in the
 * caller's allow-list (or does not exist), else calls it, logs it (`processing`, then `success` or `error`), charges
 * its price to the virtual key's budgets on success, and resolves to the CallToolResult (a failure is turned into an
 * `isError: true` result with the reason as text, so a model can read it).
 */
export abstract class McpToolExecutor {
  abstract execute(call: McpToolCall): Promise<{ logId: string; result: CallToolResult; tool: ExposedTool }>;

  /**
   * Relays one request of another kind (the caller's access to the client is the caller's check), logged as its kind
   * (`processing`, then `success` or `error` with the failure as a GatewayError). Rethrows failures (an
   * `McpCallError`): unlike a tool's, they are the caller's JSON-RPC errors.
   */
  abstract relay(call: McpRelayedCall): Promise<Record<string, unknown>>;
}
