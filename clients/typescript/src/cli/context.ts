import { GatewayClient } from '../client.js';
import type { GatewayAuth } from '../auth.js';
import { CommandFailure } from './failure.js';
import { readProfiles, profileFilePath } from './profiles.js';
import type { Invocation } from './spec.js';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export interface Connection {
  url: string;
  auth?: GatewayAuth;
  /** Where the settings came from (for status). */
  source: string;
}

/**
 * Where to connect, in order: `--profile` (or GATEWAY_PROFILE) names a profile, which wins whole; else GATEWAY_URL /
 * GATEWAY_API_KEY / GATEWAY_SETUP_TOKEN when any is set; else the profile file's current profile; else the default
 * address without credentials. `--url` overrides the address in every case.
 */
export async function resolveConnection(invocation: Invocation, env = process.env): Promise<Connection> {
  const named = (invocation.options.profile as string | undefined) ?? env.GATEWAY_PROFILE;
  const fromEnv = env.GATEWAY_URL || env.GATEWAY_API_KEY || env.GATEWAY_SETUP_TOKEN;
  let connection: Connection;
  if (named || !fromEnv) {
    const file = await readProfiles(profileFilePath(env));
    const name = named ?? file?.current;
    const profile = name ? file?.profiles[name] : undefined;
    if (named && !profile) throw new CommandFailure(`no profile '${named}' in ${profileFilePath(env)}`);
    connection = profile
      ? {
          url: profile.url ?? DEFAULT_URL,
          auth: authOf(profile.api_key, profile.setup_token),
          source: `profile ${name}`,
        }
      : { url: DEFAULT_URL, source: 'default' };
  } else {
    connection = {
      url: env.GATEWAY_URL || DEFAULT_URL,
      auth: authOf(env.GATEWAY_API_KEY, env.GATEWAY_SETUP_TOKEN),
      source: 'environment',
    };
  }
  const url = invocation.options.url as string | undefined;
  return url ? { ...connection, url } : connection;
}

function authOf(apiKey: string | undefined, setupToken: string | undefined): GatewayAuth | undefined {
  if (apiKey) return { apiKey };
  if (setupToken) return { setupToken };
  return undefined;
}

/** The client of this invocation's connection. */
export async function clientFor(invocation: Invocation): Promise<{ client: GatewayClient; connection: Connection }> {
  const connection = await resolveConnection(invocation);
  const { createRequire } = await import('node:module');
  const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
  const client = new GatewayClient({
    baseUrl: connection.url,
    auth: connection.auth,
    userAgent: `gatewayctl/${pkg.version}`,
  });
  return { client, connection };
}
