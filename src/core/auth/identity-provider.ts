import type { AuthenticatedVirtualKey, Principal } from './principal.js';

/**
 * What the authentication guard needs from the governance module, behind an interface so the core does not depend
 * on a domain module. Governance plugs its implementation into AuthPorts.
 */
export interface IdentityProvider {
  /** A `gwm_` management API key → its principal (scopes as permissions), or null when unknown/expired. */
  verifyManagementKey(token: string): Promise<Principal | null>;
  /** Email + password of a dashboard user → the user's id, name and role permissions, or null. */
  verifyUserPassword(
    email: string,
    password: string,
  ): Promise<{ id: string; name: string; permissions: string[] } | null>;
  /** Current principal of a user (role permissions re-read), or null when the user no longer exists. */
  loadUser(userId: string): Promise<Principal | null>;
  /**
   * Validates a virtual key value. Throws a GatewayException with the decisions' codes when the key is unknown (401
   * invalid_credentials), inactive or expired (403 virtual_key_blocked).
   */
  verifyVirtualKey(value: string): AuthenticatedVirtualKey | Promise<AuthenticatedVirtualKey>;
  /**
   * The same checks for a key named by id (a queued job runs as the key it was submitted with; the key's value is
   * never stored). Read from the database: for workers, never on a request path.
   */
  verifyVirtualKeyId(id: string): Promise<AuthenticatedVirtualKey>;
}
