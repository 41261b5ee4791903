import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolDefinition } from '../mcp-contract.js';
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
  /** Connects now (or checks the connection can be made); throws the reason on failure, leaving state `error`. */
  connect(): Promise<void>;
  /** Connects in the background (or reads the reported state). */
  start(): void;
  /** Lists the tools again; the count listed. */
  refreshTools(): Promise<number>;
  callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}
