/**
 * A JSON-RPC error to throw from an MCP SDK handler: the SDK sends a thrown error's `code`, `message` and `data` as
 * they are. Its own `McpError` puts `MCP error <code>: ` before the message, and SDK clients add that prefix again
 * when they report an error, so callers read it twice; this one carries the message alone.
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

/** JSON-RPC and MCP error codes the gateway's MCP server answers with. */
export const JSONRPC = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  requestTimeout: -32001,
  /** MCP: a resource that does not exist. */
  resourceNotFound: -32002,
} as const;
