import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_HEADERS,
  CREDENTIAL_QUERY_PARAMS,
  DATA_PLANE_CREDENTIAL_SOURCES,
  isCredentialField,
  isCredentialHeader,
} from '../../src/core/auth/credential-headers.js';
import { forwardedHeaders, forwardHeaderRefusal } from '../../src/core/config/forward-headers.js';
import { logMetadataOf } from '../../src/core/http/log-metadata.js';
import { LOG_CENSOR, redactLogFields } from '../../src/core/logging/log-redaction.js';
import { REDACTED, redactPayload } from '../../src/core/secrets/payload-redaction.js';
import { buildUpstreamHeaders } from '../../src/modules/agents/data-plane/upstream-headers.js';
import { storablePath, storableHeaders } from '../../src/modules/inference/async/async-job-request.js';

/**
 * Every consumer of the one credential list (src/core/auth/credential-headers.ts) drops or censors every name in it.
 * The names come from the module, so a header added to it later is covered here without editing this file.
 */
const SECRET = 'sk-gw-credential-canary-0123456789';
const HEADERS = [...CREDENTIAL_HEADERS];

/** The spellings of a name that must be treated alike in bodies and records. */
function spellings(name: string): string[] {
  const snake = name.replace(/-/g, '_');
  const camel = name.replace(/[-_]([a-z])/g, (_, c: string) => c.toUpperCase());
  return [...new Set([name, snake, camel, name.toUpperCase(), snake.toUpperCase()])];
}

describe('credential headers: one list, every consumer derived from it', () => {
  it('the data plane reads only headers of the list, and the list names every spelling the gateway accepts', () => {
    for (const source of DATA_PLANE_CREDENTIAL_SOURCES) expect(CREDENTIAL_HEADERS.has(source)).toBe(true);
    for (const name of ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'x-gateway-vk']) {
      expect(DATA_PLANE_CREDENTIAL_SOURCES).toContain(name);
    }
    for (const name of ['x-gateway-setup-token', 'cookie', 'proxy-authorization', 'x-gateway-job-ticket']) {
      expect(isCredentialHeader(name)).toBe(true);
      expect(isCredentialHeader(name.toUpperCase())).toBe(true);
    }
    expect(isCredentialHeader('x-request-id')).toBe(false);
    expect(CREDENTIAL_QUERY_PARAMS.has('key')).toBe(true);
  });

  it.each(HEADERS)('%s is never forwarded to a provider, whatever inference.forward_headers says', (name) => {
    expect(forwardHeaderRefusal(name)).toBeDefined();
    const everything = ['*', ...HEADERS, `${name.slice(0, 2)}*`];
    const out = forwardedHeaders({ [name]: SECRET, 'x-team': 'a' }, everything);
    expect(out).toEqual({ 'x-team': 'a' });
  });

  it.each(HEADERS)('%s is never sent to an A2A agent (only the registration auth or a chosen forward)', (name) => {
    const headers = buildUpstreamHeaders({
      incoming: { [name]: SECRET, 'x-trace': 't' },
      requestId: 'r1',
      runtimeAuth: {},
      forwardOverridesAuth: false,
      allowedExtensions: new Set(),
    });
    expect(JSON.stringify(headers)).not.toContain(SECRET);
    expect(headers['x-trace']).toBe('t');
    const forwarded = buildUpstreamHeaders({
      incoming: { [name]: SECRET },
      requestId: 'r1',
      runtimeAuth: { authorization: 'Bearer agent-own' },
      forwardedCredential: 'sk-gw-forwarded',
      forwardOverridesAuth: true,
      allowedExtensions: new Set(),
    });
    expect(forwarded.authorization).toBe('Bearer sk-gw-forwarded');
    expect(JSON.stringify(forwarded)).not.toContain(SECRET);
  });

  it.each(HEADERS)('%s is not stored with an async job, nor is a credential query parameter', (name) => {
    const request = {
      headers: { [name]: SECRET, 'x-gateway-log-meta-team': 'a' },
      url: `/v1/async/chat/completions?key=${SECRET}&alt=sse`,
    } as unknown as FastifyRequest;
    expect(storableHeaders(request)).toEqual({ 'x-gateway-log-meta-team': 'a' });
    expect(storablePath(request)).not.toContain(SECRET);
  });

  it.each(HEADERS)('%s is censored in log records, in any headers object and as a field in any spelling', (name) => {
    const record = { req: { headers: { [name]: SECRET, [name.toUpperCase()]: SECRET } }, ok: 1 };
    expect(JSON.stringify(redactLogFields(record))).not.toContain(SECRET);
    for (const field of spellings(name)) {
      const redacted = redactLogFields({ nested: { [field]: SECRET } }) as { nested: Record<string, unknown> };
      expect(redacted.nested[field], field).toBe(LOG_CENSOR);
    }
  });

  it.each(HEADERS)('a body field named %s (any spelling) is stored redacted', (name) => {
    for (const field of spellings(name)) {
      const stored = redactPayload({ metadata: { [field]: SECRET }, tools: [{ function: { [field]: SECRET } }] });
      expect(JSON.stringify(stored), field).not.toContain(SECRET);
      expect(JSON.stringify(stored)).toContain(REDACTED);
    }
  });

  it.each(HEADERS)('%s is never captured as log metadata, whatever the metadata prefix', (name) => {
    expect(logMetadataOf({ [name]: SECRET, 'x-team': 'a' }, name.slice(0, 2))).toEqual(
      name.startsWith('x-') ? { team: 'a' } : undefined,
    );
  });

  it('the usual secret field names are credentials too, folded alike', () => {
    for (const name of ['api_key', 'apiKey', 'API-KEY', 'access_token', 'refreshToken', 'client-secret', 'Password']) {
      expect(isCredentialField(name), name).toBe(true);
    }
    for (const name of ['model', 'messages', 'api_key_name', 'x-api-key-name', 'keys']) {
      expect(isCredentialField(name), name).toBe(false);
    }
  });
});
