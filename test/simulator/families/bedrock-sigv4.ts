import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Hash } from '@smithy/hash-node';
import { getCanonicalHeaders, SignatureV4 } from '@smithy/signature-v4';
import type { HeaderBag, HttpRequest } from '@smithy/types';
import type { SimRequest } from '../family.js';

/** The AWS credentials the simulator accepts: a gateway key configured with these signs requests it verifies. */
export const SIM_AWS = { accessKeyId: 'AKIDSIMULATOR', secretAccessKey: 'sim-secret' } as const;

/** Why a signed request is refused, as Bedrock names it. */
export interface SignatureRefusal {
  type: 'InvalidSignatureException' | 'UnrecognizedClientException' | 'IncompleteSignatureException';
  message: string;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** Exposes smithy's canonical request, so the part where signers go wrong (paths, headers, query) is AWS's own. */
class CanonicalRequestBuilder extends SignatureV4 {
  constructor() {
    super({ service: 'bedrock', region: 'us-east-1', credentials: SIM_AWS, sha256: Hash.bind(null, 'sha256') });
  }

  canonical(request: HttpRequest, headers: HeaderBag, payloadHash: string): string {
    return this.createCanonicalRequest(request, headers, payloadHash);
  }
}

const builder = new CanonicalRequestBuilder();
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');

/**
 * Verifies an `AWS4-HMAC-SHA256` Authorization as Bedrock would: the key id must be the simulator's, the payload
 * hash must match the body, and the signature is recomputed over the request as received (path exactly as sent, so
 * a `%3A` in it is encoded again to `%253A` in the canonical request). Sets `req.key` to the access key id.
 */
export function verifySigV4(req: SimRequest, authorization: string): SignatureRefusal | undefined {
  const m = AUTH.exec(authorization);
  if (!m)
    return {
      type: 'IncompleteSignatureException',
      message: 'Authorization header requires Credential, SignedHeaders and Signature.',
    };
  const [, keyId, day, region, service, signedList, signature] = m as unknown as string[];
  req.key = keyId;
  if (keyId !== SIM_AWS.accessKeyId)
    return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  const amzDate = req.headers['x-amz-date'];
  const signed = signedList!.split(';');
  if (typeof amzDate !== 'string' || !amzDate.startsWith(day!) || service !== 'bedrock' || !signed.includes('host'))
    return {
      type: 'IncompleteSignatureException',
      message: 'Signature scope, x-amz-date or signed host is missing or inconsistent.',
    };

  const payloadHash = sha256Hex(req.rawBody);
  const claimed = req.headers['x-amz-content-sha256'];
  if (claimed !== undefined && claimed !== payloadHash)
    return {
      type: 'InvalidSignatureException',
      message: 'The provided x-amz-content-sha256 header does not match what was computed.',
    };

  const headers: HeaderBag = {};
  for (const name of signed) {
    const value = req.headers[name];
    headers[name] = Array.isArray(value) ? value.join(',') : (value ?? '');
  }
  const query: Record<string, string> = {};
  for (const [name, value] of req.query) query[name] = value;
  const request: HttpRequest = { method: req.method, protocol: 'http:', hostname: '', path: req.path, query, headers };
  const canonical = builder.canonical(request, getCanonicalHeaders(request, undefined, new Set(signed)), payloadHash);
  const scope = `${day}/${region}/bedrock/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256Hex(canonical)}`;
  const key = hmac(hmac(hmac(hmac(`AWS4${SIM_AWS.secretAccessKey}`, day!), region!), 'bedrock'), 'aws4_request');
  const expected = hmac(key, toSign);
  if (!timingSafeEqual(expected, Buffer.from(signature!, 'hex')))
    return {
      type: 'InvalidSignatureException',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    };
  return undefined;
}
