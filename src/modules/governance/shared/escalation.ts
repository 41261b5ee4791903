import type { Principal } from '../../../core/auth/principal.js';
import type { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';

/**
 * Nobody hands out more than they hold (decisions.md, RBAC): in the enterprise edition a caller may grant a role
 * permission, a key scope or a user role only when it holds every permission granted. The local admin (permissions
 * 'all') may grant anything. In `oss` permissions are not enforced, so nothing is clamped.
 * A request without a principal holds nothing: the guard always sets one, so its absence must not widen access.
 */
export function assertMayGrant(
  config: GatewayConfig,
  principal: Principal | undefined,
  granted: readonly string[],
  what: string,
): void {
  if (config.edition !== 'enterprise') return;
  const held = principal?.permissions ?? new Set<string>();
  if (held === 'all') return;
  const missing = granted.find((p) => !held.has(p));
  if (missing) {
    throw GatewayException.forbidden(
      'permission_denied',
      `Cannot grant ${missing} in ${what}: the caller does not hold ${missing} itself`,
    );
  }
}
