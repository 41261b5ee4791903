import { Injectable, type PipeTransform } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { PROVIDER_IDS, type ProviderId } from '../providers/provider-ids.js';
import { PROVIDER_ID_MESSAGE } from './dto/provider.dto.js';

/** The `{provider}` path parameter: one of the provider ids, else 400 naming `provider`. */
@Injectable()
export class ProviderIdPipe implements PipeTransform<string, ProviderId> {
  transform(value: string): ProviderId {
    if (!PROVIDER_IDS.includes(value as ProviderId)) throw GatewayException.validation('provider', PROVIDER_ID_MESSAGE);
    return value as ProviderId;
  }
}

/** OpenAPI description of the `{provider}` path parameter. */
export const PROVIDER_PARAM = {
  name: 'provider',
  enum: PROVIDER_IDS,
  enumName: 'ProviderId',
  description: 'Provider id',
  example: 'openai',
} as const;
