import type { GatewayConfig } from './gateway-config.js';

/**
 * Set by the container image. A process on a developer's machine may lean on what it generates into its app dir (an
 * encryption key, a setup token); a container with a shared database must not: its app dir is per replica and often
 * lost with the container, so a generated key cannot decrypt what other replicas wrote, and a generated token is not
 * known to anyone. In a container, what a run mode needs is required up front, one line per missing variable.
 */
export const CONTAINER_ENV = 'GATEWAY_CONTAINER';

/** The variables (and their config keys) a container's run mode cannot start without, with why. */
export function missingContainerVariables(config: GatewayConfig): string[] {
  const missing: string[] = [];
  const require = (given: unknown, variable: string, key: string, why: string) => {
    if (given === undefined || given === '') missing.push(`${variable} (${key}) is required ${why}`);
  };
  if (config.role !== 'all') {
    // A lone api replica queues jobs nobody runs; a lone worker has nothing to read.
    require(config.database_url, 'DATABASE_URL', 'database_url', `with role ${config.role}: it shares the database`);
    require(config.redis_url, 'REDIS_URL', 'redis_url', `with role ${config.role}: the queue is on Redis`);
  }
  if (config.database_url || config.role !== 'all') {
    require(config.encryption_key, 'GATEWAY_ENCRYPTION_KEY', 'encryption_key', 'with a shared database: every replica must decrypt with the same key (openssl rand -base64 32)');
    if (config.role !== 'worker' && !config.auth_config.is_enabled) {
      require(config.setup_token, 'GATEWAY_SETUP_TOKEN', 'setup_token', 'with a shared database unless GATEWAY_AUTH_ENABLED=true: without it /api/* stays locked (openssl rand -hex 16)');
    }
  }
  return missing;
}
