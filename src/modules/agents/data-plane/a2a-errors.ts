import type { FastifyRequest } from 'fastify';
import { ErrorFields } from '../../../core/errors/error-context.js';
import { isA2aMethod, matchRestRoute } from './a2a-wire.js';

type Fields = { a2a_request_type?: string; a2a_agent_name?: string };

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

function agentName(request: FastifyRequest): string | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = request.body as Record<string, unknown> | null | undefined;
  return nonEmpty(params.name) ?? (body && typeof body === 'object' ? nonEmpty(body.name) : undefined);
}

/** The path after `/agents/a2a/{name}/rest/`, percent-encoding of task ids kept; the router's wildcard otherwise. */
export function restPathOf(request: FastifyRequest): string {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const prefix = `/agents/a2a/${encodeURIComponent(params.name ?? '')}/rest/`;
  const pathOnly = request.url.split('?')[0] ?? '';
  return pathOnly.startsWith(prefix) ? pathOnly.slice(prefix.length) : (params['*'] ?? '');
}

/**
 * `a2a_agent_name` of the route's agent. Registrations, history and push management are not A2A operations, so they
 * carry no `a2a_request_type`.
 */
export const AgentErrorFields = () => ErrorFields((request): Fields => ({ a2a_agent_name: agentName(request) }));

/** The served card: `GetAgentCard`, the operation history records card fetches as (refusals included). */
export const CardErrorFields = () =>
  ErrorFields((request): Fields => ({ a2a_agent_name: agentName(request), a2a_request_type: 'GetAgentCard' }));

/**
 * JSON-RPC: `a2a_request_type` is the body's method when it is an A2A v1 method, and absent otherwise. A refusal of
 * the credential is decided before the body is read, so it carries the agent's name only.
 */
export const JsonRpcErrorFields = () =>
  ErrorFields((request): Fields => {
    const body = request.body as { method?: unknown } | null | undefined;
    const method = body && typeof body === 'object' && !Array.isArray(body) ? body.method : undefined;
    return {
      a2a_agent_name: agentName(request),
      a2a_request_type: typeof method === 'string' && isA2aMethod(method) ? method : undefined,
    };
  });

/** HTTP+JSON: `a2a_request_type` is the operation the method and path name, and absent when they name none. */
export const RestErrorFields = () =>
  ErrorFields((request): Fields => ({
    a2a_agent_name: agentName(request),
    a2a_request_type: matchRestRoute(request.method, restPathOf(request))?.operation,
  }));
