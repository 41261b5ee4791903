import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import type { AgentTlsSettings } from './outbound-http.service.js';
import type { SecretsService } from '../secrets/secrets.service.js';
import type { StoredUpstreamTls } from './upstream-auth.types.js';

/** Resolves the stored TLS options (SecretValue PEMs) into what the outbound client takes; null when none apply. */
export async function resolveUpstreamTls(
  secrets: SecretsService,
  tls: StoredUpstreamTls | null | undefined,
): Promise<AgentTlsSettings | null> {
  if (!tls) return null;
  const settings: AgentTlsSettings = {};
  if (tls.insecure_skip_verify) settings.insecure_skip_verify = true;
  if (tls.ca_cert_pem) settings.ca_cert_pem = await secrets.resolve(tls.ca_cert_pem);
  if (tls.client_cert_pem) settings.client_cert_pem = await secrets.resolve(tls.client_cert_pem);
  if (tls.client_key_pem) settings.client_key_pem = await secrets.resolve(tls.client_key_pem);
  return Object.keys(settings).length ? settings : null;
}

/** The PEM fields whose text is bad, with the reason: `{ field, message }`, or undefined when all parse. */
export function tlsPemProblem(pems: AgentTlsSettings): { field: keyof AgentTlsSettings; message: string } | undefined {
  if (pems.ca_cert_pem !== undefined) {
    try {
      new X509Certificate(pems.ca_cert_pem);
    } catch {
      return { field: 'ca_cert_pem', message: 'is not a valid PEM certificate' };
    }
  }
  let cert: X509Certificate | undefined;
  if (pems.client_cert_pem !== undefined) {
    try {
      cert = new X509Certificate(pems.client_cert_pem);
    } catch {
      return { field: 'client_cert_pem', message: 'is not a valid PEM certificate' };
    }
  }
  let key: KeyObject | undefined;
  if (pems.client_key_pem !== undefined) {
    try {
      key = createPrivateKey(pems.client_key_pem);
    } catch {
      return { field: 'client_key_pem', message: 'is not a valid PEM private key (encrypted keys are not supported)' };
    }
  }
  if (cert && key && !cert.checkPrivateKey(key)) {
    return { field: 'client_key_pem', message: 'does not match client_cert_pem' };
  }
  return undefined;
}
