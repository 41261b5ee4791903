import { Injectable, type PipeTransform } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { PROVIDER_IDS, type ProviderId } from '../../inference/index.js';

/** The `{provider}` path parameter of governance routes: a provider id, else 400 naming `provider`. */
@Injectable()
export class GovernanceProviderPipe implements PipeTransform<string, ProviderId> {
  transform(value: string): ProviderId {
    if (!PROVIDER_IDS.includes(value as ProviderId)) {
      throw GatewayException.validation('provider', `provider must be one of ${PROVIDER_IDS.join(', ')}`);
    }
    return value as ProviderId;
  }
}

export const GOVERNANCE_PROVIDER_PARAM = {
  name: 'provider',
  enum: PROVIDER_IDS,
  enumName: 'ProviderId',
  description: 'Provider id',
  example: 'openai',
} as const;
