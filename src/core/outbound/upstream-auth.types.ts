import type { StoredSecret } from '../secrets/secret-value.js';

/**
 * Upstream authentication as stored (jsonb): how the gateway authenticates itself to a peer (an A2A agent today; MCP
 * servers and webhooks next). Secrets are StoredSecrets (ciphertext or reference), resolved at call time.
 */
export const AUTH_TYPES = ['none', 'headers', 'oauth'] as const;
export type UpstreamAuthType = (typeof AUTH_TYPES)[number];

/** Persisted `AgentUpstreamOAuthConfig`: the credentials as StoredSecrets (ciphertext or reference). */
export interface StoredUpstreamOAuth {
  provider_url?: string;
  discovery_url?: string;
  token_url?: string;
  client_id: StoredSecret;
  client_secret: StoredSecret;
  scopes?: string[];
  resource?: string;
}

/** Persisted `AgentUpstreamTLSConfig`. */
export interface StoredUpstreamTls {
  insecure_skip_verify?: boolean;
  ca_cert_pem?: StoredSecret;
  client_cert_pem?: StoredSecret;
  client_key_pem?: StoredSecret;
}

/** Persisted `AgentUpstreamAuth` (jsonb). */
export interface StoredUpstreamAuth {
  type: UpstreamAuthType;
  headers?: Record<string, StoredSecret>;
  oauth?: StoredUpstreamOAuth;
  security_schemes?: string[];
  advanced?: boolean;
  tls?: StoredUpstreamTls;
}
