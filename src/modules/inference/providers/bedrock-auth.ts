import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { BedrockKeySettings, ProviderTarget, UpstreamCall } from './provider-adapter.js';

/**
 * Authenticates a built Bedrock call: SigV4 (service `bedrock`) with the key's AWS credentials, else the key value as
 * a Bedrock API key (`Authorization: Bearer`).
 *
 * The signed path is the URL's path exactly as undici sends it (model ids already percent-encoded: `:` → `%3A`,
 * an ARN's `/` → `%2F`); with `uriEscapePath` (every AWS service but S3) the signer encodes each segment once more,
 * `%3A` → `%253A`, as AWS's canonical request wants. `host` is signed with the value undici will send (`URL.host`:
 * the port only when it is not the scheme's default) and left to undici on the wire.
 */
export const BEDROCK_SIGNING_SERVICE = 'bedrock';

export async function authorizeBedrockCall(
  call: UpstreamCall,
  target: ProviderTarget,
  now: number,
): Promise<UpstreamCall> {
  const settings = target.key.bedrock;
  if (settings?.accessKeyId && settings.secretAccessKey) return signCall(call, settings, now);
  if (!target.key.value) {
    throw new GatewayException(
      502,
      'provider_error',
      `Key ${target.key.name} has neither AWS credentials nor an API key`,
      {
        reason: 'provider_auth_failed',
      },
    );
  }
  return { ...call, headers: { ...call.headers, authorization: `Bearer ${target.key.value}` } };
}

async function signCall(call: UpstreamCall, settings: BedrockKeySettings, now: number): Promise<UpstreamCall> {
  const url = new URL(call.url);
  const signer = new SignatureV4({
    service: BEDROCK_SIGNING_SERVICE,
    region: settings.region,
    sha256: Hash.bind(null, 'sha256'),
    credentials: {
      accessKeyId: settings.accessKeyId!,
      secretAccessKey: settings.secretAccessKey!,
      sessionToken: settings.sessionToken,
    },
    uriEscapePath: true,
  });
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
      headers: { ...call.headers, host: url.host },
      body: call.body,
    },
    { signingDate: new Date(now) },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') headers[name] = value;
  return { ...call, headers };
}
