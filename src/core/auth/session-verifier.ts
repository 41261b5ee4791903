import type { Principal } from './principal.js';

/**
 * What the guard needs from the session module (which owns the session tables), behind an interface so the core
 * does not depend on a domain module. The session module plugs its implementation into AuthPorts.
 */
export interface SessionVerifier {
  /** A dashboard session token → the principal it stands for, or null when unknown, expired or revoked. */
  verifyDashboardSession(token: string): Promise<Principal | null>;
  /** A setup session cookie → its session id, or null when unknown or expired. */
  verifySetupSession(token: string): Promise<string | null>;
  /** Ends every dashboard session of a user (its password changed); resolves to how many ended. */
  revokeUserSessions(userId: string): Promise<number>;
}
