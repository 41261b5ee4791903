import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Evidence for the CI secrets scan (issue 18 §4, `scripts/ci/secret-scan.mjs`). When GATEWAY_TEST_EVIDENCE_DIR is set,
 * the helpers append here every log line a gateway wrote (in-process apps and spawned processes), every management
 * (`/api/*`) response body a test received, and every plain-text secret a test configured (provider keys, header
 * secrets, OAuth client secrets, the admin password, the setup token, virtual and management key values). The scan
 * then proves that no secret appears in any log line or management response. Unset: nothing is recorded.
 *
 * One file of each kind per test worker process, newline-delimited JSON (log lines as they are).
 */
export const EVIDENCE_ENV = 'GATEWAY_TEST_EVIDENCE_DIR';

const dir = process.env[EVIDENCE_ENV] || undefined;
let ready = false;

function file(kind: 'logs' | 'responses' | 'secrets'): string | undefined {
  if (!dir) return undefined;
  if (!ready) {
    mkdirSync(dir, { recursive: true });
    ready = true;
  }
  return join(dir, `${kind}-${process.pid}.${kind === 'logs' ? 'log' : 'ndjson'}`);
}

export const evidenceEnabled = (): boolean => dir !== undefined;

/** Log lines of a gateway (pino JSON lines or a process's stderr), as written. */
export function recordLogLines(lines: string[]): void {
  const path = file('logs');
  if (!path || lines.length === 0) return;
  appendFileSync(path, lines.map((l) => `${l.replace(/\n/g, '\\n')}\n`).join(''));
}

/**
 * A management response. `exempt` names secrets this response may carry by contract: a key's value in the response
 * that created it (shown once), a webhook's signing secret on create and rotate.
 */
export function recordResponse(
  method: string,
  path: string,
  status: number,
  text: string,
  exempt: string[] = [],
): void {
  const out = file('responses');
  if (!out) return;
  appendFileSync(out, `${JSON.stringify({ method, path, status, text, exempt })}\n`);
}

/** Shorter values are not scanned for (they would match by chance); the tests' secrets are longer. */
const MIN_SECRET_LENGTH = 8;
const REFERENCE = /^(env\.|vault\.)/;
const REDACTED = '<REDACTED>';

/** A plain-text secret a test configured, with where it came from. References and placeholders are not secrets. */
export function recordSecret(value: unknown, source: string): void {
  const out = file('secrets');
  if (!out || typeof value !== 'string') return;
  if (value.length < MIN_SECRET_LENGTH || REFERENCE.test(value) || value === REDACTED) return;
  appendFileSync(out, `${JSON.stringify({ value, source })}\n`);
}

/** A SecretValue in either input form: `"text"` or `{ value, type }` (only plain text is a secret). */
function recordSecretValue(input: unknown, source: string): void {
  if (typeof input === 'string') recordSecret(input, source);
  else if (input && typeof input === 'object') {
    const { value, type } = input as { value?: unknown; type?: unknown };
    if (type === undefined || type === 'plain_text') recordSecret(value, source);
  }
}

/** Fields whose value is a secret wherever they appear in a management request body. */
const SECRET_FIELDS = new Set([
  'client_secret',
  'admin_password',
  'password',
  'api_key',
  'secret_key',
  'session_token',
  'private_key',
  'client_key_pem',
  'credentials',
  'token',
]);
/** Maps of name to SecretValue. */
const SECRET_MAPS = new Set(['extra_headers', 'headers']);

/** Walks a management request body for the secrets it configures. `keyValue`: the body's `value` is a key. */
export function recordRequestSecrets(body: unknown, path: string, depth = 0): void {
  if (!dir || !body || typeof body !== 'object' || depth > 8) return;
  if (Array.isArray(body)) {
    for (const item of body) recordRequestSecrets(item, path, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (SECRET_FIELDS.has(key)) recordSecretValue(value, `${path} ${key}`);
    else if (key === 'value' && depth === 0 && /\/keys(\/|$)/.test(path)) recordSecretValue(value, `${path} value`);
    else if (SECRET_MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, secret] of Object.entries(value as Record<string, unknown>)) {
        recordSecretValue(secret, `${path} ${key}.${name}`);
      }
    } else if (value && typeof value === 'object') recordRequestSecrets(value, path, depth + 1);
  }
}

/**
 * Secrets a management response hands out by contract (and so is exempt from): key values on create, a webhook's
 * signing secret on create and rotate. Recorded as secrets: they must appear nowhere else.
 */
export function responseSecrets(method: string, path: string, body: unknown): string[] {
  if (!body || typeof body !== 'object' || method !== 'POST') return [];
  const found: string[] = [];
  const b = body as Record<string, any>;
  const push = (value: unknown, source: string) => {
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH && value !== REDACTED) {
      found.push(value);
      recordSecret(value, source);
    }
  };
  push(b.virtual_key?.value, `${path} virtual_key.value`);
  if (/\/management-keys(\/|$)/.test(path)) push(b.value, `${path} value`);
  if (/\/webhooks(\/[^/]+\/rotate-secret)?$/.test(path)) push(b.secret, `${path} secret`);
  return found;
}

/** The secrets of a config given to a test gateway (admin password, setup token, Vault token, ...). */
export function recordConfigSecrets(config: Record<string, unknown> | undefined): void {
  if (!dir || !config) return;
  for (const key of ['setup_token', 'vault_token', 'encryption_key']) recordSecret(config[key], `config ${key}`);
  recordRequestSecrets(config, 'config');
}
