import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** How the caller proved who it is (recorded in audit rows). */
export type AuthMethod =
  | 'basic'
  | 'legacy_bearer'
  | 'session'
  | 'management_key'
  | 'setup_token'
  | 'setup_session'
  | 'auth_disabled'
  | 'virtual_key';

/**
 * An MCP grant a virtual key carries (`virtual_keys.mcp_configs`): the key may use these tools of that client
 * (`["*"]` every tool the client executes, `[]` none).
 */
export interface VirtualKeyMcpGrant {
  mcp_client_id: string;
  tools_to_execute: string[];
}

/** The virtual key a data-plane request was authenticated with: active (checked), with what later checks need. */
export interface AuthenticatedVirtualKey {
  id: string;
  name: string;
  team_id: string | null;
  customer_id: string | null;
  /** Epoch ms when the key expires (checked at authentication; a long stream may check again), or null. */
  expires_at: number | null;
  /** The raw credential as presented (forwarded upstream only where a feature allows it). */
  presented_value: string;
  /**
   * The key's own MCP grants, from the key cache. One frozen array per cache load: a changed grant list is a new
   * array, which the MCP catalog compares by identity.
   */
  mcp_grants: readonly VirtualKeyMcpGrant[];
}

/** Who is calling, built once per request by the authentication guard. */
export interface Principal {
  kind: 'local_admin' | 'user' | 'management_key' | 'setup' | 'virtual_key';
  authMethod: AuthMethod;
  id?: string;
  name?: string;
  /** `Resource:Operation` strings, or 'all' for the local admin (and every caller while dashboard auth is off). */
  permissions: ReadonlySet<string> | 'all';
  virtualKey?: AuthenticatedVirtualKey;
  /** Session id when authenticated by a dashboard session (logout revokes it). */
  sessionId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** Who a record names as having acted (audit rows, access profile versions): the principal's name, else its id. */
export function actorOf(principal: Principal | undefined): string | null {
  return principal ? (principal.name ?? principal.id ?? null) : null;
}

/** Injects the request's Principal into a handler parameter. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal | undefined => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().principal;
});
