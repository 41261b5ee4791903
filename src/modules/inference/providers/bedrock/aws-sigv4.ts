import type { BedrockKeySettings, UpstreamCall } from '../shared/provider-adapter.js';

/**
 * The signer, imported with the first signed call: `@smithy/signature-v4` and its `@smithy/core` hold about 0.8 MB of
 * V8 heap, which a gateway without Bedrock keys never needs.
 */
let signerModules: Promise<[typeof import('@smithy/signature-v4'), typeof import('@smithy/hash-node')]> | undefined;

/**
 * The call signed with AWS Signature V4 for `service`: `authorization`, `x-amz-date` (and the session token) added.
 *
 * The signed path is the URL's path exactly as undici sends it (model ids already percent-encoded: `:` → `%3A`, an
 * ARN's `/` → `%2F`); with `uriEscapePath` (every AWS service but S3) the signer encodes each segment once more,
 * `%3A` → `%253A`, as AWS's canonical request wants. `host` is signed with the value undici will send (`URL.host`:
 * the port only when it is not the scheme's default) and left to undici on the wire.
 */
export async function signedCall(
  call: UpstreamCall,
  service: string,
  settings: BedrockKeySettings & { accessKeyId: string; secretAccessKey: string },
  now: number,
): Promise<UpstreamCall> {
  signerModules ??= Promise.all([import('@smithy/signature-v4'), import('@smithy/hash-node')]);
  const [{ SignatureV4 }, { Hash }] = await signerModules;
  const signer = new SignatureV4({
    service,
    region: settings.region,
    credentials: {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      ...(settings.sessionToken ? { sessionToken: settings.sessionToken } : {}),
    },
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: true,
  });
  const url = new URL(call.url);
  const headers: Record<string, string> = { ...call.headers, host: url.host };
  delete headers.authorization;
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  const signed = await signer.sign(
    {
      method: call.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query,
      headers,
      body: call.body,
    },
    { signingDate: new Date(now) },
  );
  // The client sends Host from the URL itself; the value signed is the same.
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') out[name] = String(value);
  return { ...call, headers: out };
}
