import { Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { LoggingMessageNotification, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { JSONRPC, JsonRpcError } from '../jsonrpc-error.js';
import { exposedToolName, McpCallError, type McpCallRelay } from '../mcp-contract.js';
import type { ResolvedCaller } from '../tools/mcp-caller.js';
import { CallerRequests } from './caller-requests.js';
import { McpSessions, type McpSession } from './mcp-sessions.js';

/** What one `/mcp` request may reach: the caller's clients, or one of them (`/mcp/{client}`). */
export interface Scope {
  caller: ResolvedCaller;
  /** Set on `/mcp/{client}`: only this client, its tools, prompts and resources under their own names. */
  client?: string;
}

/** One request to the gateway's MCP server: who, where, and the session it belongs to (if the caller has one). */
export interface Exchange {
  scope: Scope;
  session?: McpSession;
}

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A log line relayed on `/mcp` names its client: `logger` becomes `<client>` or `<client>-<logger>`. */
export function logFromClient(
  exchange: Exchange,
  client: string,
  params: LoggingMessageNotification['params'],
): LoggingMessageNotification['params'] {
  if (exchange.scope.client !== undefined) return params;
  return { ...params, logger: params.logger ? exposedToolName(client, params.logger) : client };
}

/** Why the caller cannot answer `method` (it did not declare the capability at `initialize`), or undefined. */
function undeclared(session: McpSession | undefined, method: string, params: Record<string, unknown> | undefined) {
  const declared = session?.capabilities;
  switch (method) {
    case 'sampling/createMessage':
      if (!declared?.sampling) return 'sampling';
      if ((params?.tools !== undefined || params?.toolChoice !== undefined) && !declared.sampling.tools) {
        return 'sampling with tools';
      }
      return undefined;
    case 'elicitation/create': {
      const elicitation = declared?.elicitation;
      if (!elicitation) return 'elicitation';
      const mode = (params?.mode as string | undefined) ?? 'form';
      // `elicitation: {}` is form mode (the 2025-06-18 shape).
      const modes = Object.keys(elicitation).length === 0 ? ['form'] : Object.keys(elicitation);
      return modes.includes(mode) ? undefined : `${mode} elicitation`;
    }
    case 'roots/list':
      return declared?.roots ? undefined : 'roots';
    default:
      return method;
  }
}

/**
 * What a relayed request of a caller receives from the upstream server while it runs, sent to that caller on the
 * response stream of its request: progress with the caller's own token, log lines at or above the session's level,
 * and requests (sampling, elicitation, roots) when the caller declared it answers them.
 */
@Injectable()
export class CallerRelays {
  constructor(
    private readonly sessions: McpSessions,
    private readonly requests: CallerRequests,
  ) {}

  relayFor(exchange: Exchange, server: Server, extra: Extra, client: string): McpCallRelay {
    const progressToken = extra._meta?.progressToken;
    const session = exchange.session;
    return {
      ...(progressToken !== undefined
        ? {
            progress: (progress) =>
              void extra
                .sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } })
                .catch(() => undefined),
          }
        : {}),
      log: (params) => {
        if (!this.sessions.wantsLog(session, params.level)) return;
        void extra
          .sendNotification({ method: 'notifications/message', params: logFromClient(exchange, client, params) })
          .catch(() => undefined);
      },
      request: (method, params, signal) => {
        const missing = undeclared(session, method, params);
        const transport = server.transport;
        if (missing !== undefined || !transport) {
          const why = session ? `its caller did not declare ${missing}` : 'its caller has no MCP session';
          return Promise.reject(
            new JsonRpcError(JSONRPC.methodNotFound, `The AI gateway cannot relay ${method}: ${why}`),
          );
        }
        return this.requests.request(transport, extra.requestId, session?.id, method, params, signal);
      },
    };
  }

  /**
   * Runs one of the caller's requests with a signal that stops it when the caller cancels it (`notifications/cancelled`,
   * on any replica, for a caller with a session) or goes away.
   */
  async running<T>(exchange: Exchange, extra: Extra, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const stop = () => controller.abort(extra.signal.reason);
    if (extra.signal.aborted) stop();
    else extra.signal.addEventListener('abort', stop, { once: true });
    const untrack = exchange.session
      ? this.requests.track(exchange.session.id, extra.requestId, controller)
      : undefined;
    try {
      return await run(controller.signal);
    } finally {
      untrack?.();
      extra.signal.removeEventListener('abort', stop);
    }
  }
}

/**
 * A relayed request's failure as the caller's JSON-RPC error: the server's own error as it sent it (code, message,
 * data), a timeout -32001, an unreachable server -32603, a refusal of the gateway -32602 with the GatewayError as data.
 */
export function asJsonRpcError(err: unknown): unknown {
  if (err instanceof McpCallError) {
    if (err.kind === 'jsonrpc') return new JsonRpcError(err.code ?? JSONRPC.internalError, err.message, err.data);
    return new JsonRpcError(err.kind === 'timeout' ? JSONRPC.requestTimeout : JSONRPC.internalError, err.message);
  }
  if (err instanceof GatewayException && err.status < 500) {
    return new JsonRpcError(JSONRPC.invalidParams, err.message, toErrorResponse(err).body);
  }
  return err;
}
