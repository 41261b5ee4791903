import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { signedCall } from './aws-sigv4.js';
import type { ProviderTarget, UpstreamCall } from '../shared/provider-adapter.js';

export const BEDROCK_SIGNING_SERVICE = 'bedrock';

/**
 * Authenticates a built Bedrock call: SigV4 (service `bedrock`) with the key's AWS credentials, else the key value as
 * a Bedrock API key (`Authorization: Bearer`).
 */
export async function authorizeBedrockCall(
  call: UpstreamCall,
  target: ProviderTarget,
  now: number,
): Promise<UpstreamCall> {
  const settings = target.key.bedrock;
  if (settings?.accessKeyId && settings.secretAccessKey) {
    return signedCall(
      call,
      BEDROCK_SIGNING_SERVICE,
      { ...settings, accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      now,
    );
  }
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
