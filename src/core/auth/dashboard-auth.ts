import type { GatewayConfig } from '../config/gateway-config.js';

/** Dashboard auth is active when enabled and both admin credentials are configured (decisions.md). */
export function isDashboardAuthActive(config: GatewayConfig): boolean {
  const auth = config.auth_config;
  return auth.is_enabled && !!auth.admin_username && !!auth.admin_password;
}

/**
 * The setup lock: management routes need the setup token while dashboard auth is not active. decisions.md names it
 * for the open-source edition; we hold enterprise deployments without dashboard auth to it as well (docs/auth.md).
 */
export function isSetupLockActive(config: GatewayConfig): boolean {
  return !isDashboardAuthActive(config);
}
