import type {
  CallToolResult,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpCallOptions, McpRelayedMethod, McpToolDefinition } from '../mcp-contract.js';
import type { McpClientState } from './dto/mcp-client.dto.js';

/**
 * A registration's connection as this replica holds it: its own (`McpConnection`), or, for a stdio client on an `api`
 * replica, the one a worker holds (`WorkerRoutedConnection`: state and tools as the worker reported them, calls sent
 * to it through the queue).
 */
export interface LiveConnection {
  readonly id: string;
  readonly name: string;
  readonly state: McpClientState;
  readonly tools: McpToolDefinition[];
  readonly lastError: string | null;
  /** The server's capabilities and what it offers besides tools (empty where it is not relayed). */
  readonly capabilities: ServerCapabilities;
  readonly prompts: Prompt[];
  readonly resources: Resource[];
  readonly resourceTemplates: ResourceTemplate[];
  /** Connects now (or checks the connection can be made); throws the reason on failure, leaving state `error`. */
  connect(): Promise<void>;
  /** Connects in the background (or reads the reported state). */
  start(): void;
  /** Lists the tools again; the count listed. */
  refreshTools(): Promise<number>;
  callTool(toolName: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult>;
  request(
    method: McpRelayedMethod,
    params: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<Record<string, unknown>>;
  subscribe(uri: string, options: McpCallOptions): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  close(): Promise<void>;
}
