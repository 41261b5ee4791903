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

/** The virtual key a data-plane request was authenticated with. */
export interface AuthenticatedVirtualKey {
  id: string;
  name: string;
  team_id: string | null;
  customer_id: string | null;
  /** The raw credential as presented (forwarded upstream only where a feature allows it). */
  presented_value: string;
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

/** Injects the request's Principal into a handler parameter. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal | undefined => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().principal;
});
