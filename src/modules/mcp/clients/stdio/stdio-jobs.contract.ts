import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpCallError, McpToolDefinition } from '../../mcp-contract.js';

/** How a routed tool call ended on the worker: the server's result, or why there is none (an `McpCallError`). */
export type StdioCallOutcome =
  { result: CallToolResult } | { error: { kind: McpCallError['kind']; message: string; code?: number } };

/** How a routed probe or refresh ended: the tools listed, or why not. */
export type StdioControlOutcome = { tools: McpToolDefinition[] } | { error: string };

/**
 * Beyond a call's own timeout, how long the asking replica waits for the worker's answer: the queue's pick-up and the
 * result's way back (the worker stops the call itself at the caller's deadline).
 */
export const QUEUE_GRACE_MS = 5_000;
