import { toErrorResponse, type GatewayErrorBody } from '../../../core/errors/error-response.js';
import { clip } from '../../../core/http/echo.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { RPC } from './a2a-wire.js';

export type RpcId = string | number | null;

export interface RpcErrorEnvelope {
  jsonrpc: '2.0';
  id: RpcId;
  error: { code: number; message: string; data: GatewayErrorBody };
}

export interface RpcErrorReply {
  status: number;
  body: RpcErrorEnvelope;
  headers: Record<string, string>;
  unexpected: boolean;
}

/** JSON-RPC code for a gateway-decided failure, by the HTTP status the GatewayError carries. */
function codeFor(status: number): number {
  if (status === 404) return RPC.taskNotFound;
  if (status >= 500) return RPC.internalError;
  return RPC.invalidRequest;
}

/**
 * A JSON-RPC error object whose `data` is the GatewayError body; the HTTP status stays the GatewayError's status
 * (502 for an unreachable upstream, 400 for an invalid request) so HTTP tooling sees the failure too.
 */
export function rpcErrorReply(
  id: RpcId,
  err: unknown,
  errorFields: Record<string, unknown> | undefined,
  code?: number,
): RpcErrorReply {
  const response = toErrorResponse(err, errorFields);
  return {
    status: response.status,
    headers: response.headers,
    unexpected: response.unexpected,
    body: {
      jsonrpc: '2.0',
      id,
      error: { code: code ?? codeFor(response.status), message: response.body.error.message, data: response.body },
    },
  };
}

export function invalidRequest(message: string, param = 'body'): GatewayException {
  return new GatewayException(400, 'invalid_jsonrpc_request', message, { param, reason: 'caller_invalid_request' });
}

export function methodNotFound(method: string): GatewayException {
  return new GatewayException(404, 'jsonrpc_method_not_found', `Unknown A2A v1 method ${clip(method)}`, {
    param: 'method',
    reason: 'caller_invalid_request',
  });
}

export function upstreamProtocolError(message: string): GatewayException {
  return new GatewayException(502, 'upstream_error', message, { reason: 'provider_server_error' });
}

export function isRpcEnvelope(
  value: unknown,
): value is { jsonrpc: '2.0'; id?: RpcId; result?: unknown; error?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
    ('result' in value || 'error' in value)
  );
}
