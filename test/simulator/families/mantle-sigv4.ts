import { createHash, createHmac } from 'node:crypto';
import type { SimRequest } from '../family.js';

/** The only AWS credentials the simulator's Mantle family accepts (tests configure a key with them). */
export const MANTLE_TEST_CREDENTIALS = {
  accessKeyId: 'AKIASIMMANTLE0000001',
  secretAccessKey: 'sim/mantle/secret/key/0000000000000000000',
} as const;

const hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it (`!'()*` too). */
const escape = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Checks an AWS Signature V4 `Authorization` header independently of the SDK that signed it (node:crypto, from the
 * spec): the canonical request over the headers it names, the scope's service, and the signature with the test
 * secret. Returns the problem, or undefined when the signature is right. The body is the request's JSON as sent by
 * the gateway (`JSON.stringify` both ways gives the same bytes).
 */
export function sigv4Problem(req: SimRequest, service: string): string | undefined {
  const auth = req.headers.authorization;
  const match =
    typeof auth === 'string'
      ? /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
          auth,
        )
      : null;
  if (!match) return 'Authorization header is not AWS4-HMAC-SHA256';
  const [, accessKey, day, region, scopeService, signedHeaders, signature] = match as unknown as string[];
  if (accessKey !== MANTLE_TEST_CREDENTIALS.accessKeyId)
    return 'The security token included in the request is invalid.';
  if (scopeService !== service) return `Credential should be scoped to correct service: '${service}'.`;
  const amzDate = req.headers['x-amz-date'];
  if (typeof amzDate !== 'string' || !amzDate.startsWith(day!)) return 'x-amz-date is missing or outside the scope';
  const names = signedHeaders!.split(';');
  if (!names.includes('host')) return "'Host' must be a signed header";
  const canonicalHeaders = names
    .map((n) => {
      const v = req.headers[n];
      return `${n}:${(Array.isArray(v) ? v.join(',') : (v ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const body = req.body === undefined ? '' : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
  const query = [...req.query.entries()]
    .map(([k, v]) => [escape(k), escape(v)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [
    req.method,
    escape(req.path).replace(/%2F/g, '/'),
    query,
    canonicalHeaders,
    signedHeaders,
    typeof req.headers['x-amz-content-sha256'] === 'string' ? req.headers['x-amz-content-sha256'] : hex(body),
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonical)].join('\n');
  let key = hmac(`AWS4${MANTLE_TEST_CREDENTIALS.secretAccessKey}`, day!);
  for (const part of [region!, service, 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  return expected === signature
    ? undefined
    : 'The request signature we calculated does not match the signature you provided.';
}
