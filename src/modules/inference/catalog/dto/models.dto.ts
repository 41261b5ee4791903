import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PricingPatchDto } from '../../../governance/index.js';
import { KeyStatusDto } from '../../../../core/errors/gateway-error.dto.js';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../providers/provider-ids.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { PROVIDER_ID_MESSAGE } from './provider.dto.js';

export class ModelsQueryDto {
  @ApiPropertyOptional({ ...PROVIDER_ID_SCHEMA, description: 'Only this provider’s models' })
  @IsOptionalNonNull()
  @IsIn(PROVIDER_IDS, { message: PROVIDER_ID_MESSAGE })
  provider?: ProviderId;
}

@ApiSchema({ name: 'ProviderModel' })
export class ProviderModelDto {
  @ApiProperty({ type: String, description: '`<provider>/<model>`, as /v1 takes it', example: 'openai/gpt-4o' })
  id: string;
  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'Provider listing it' }) provider: ProviderId;
  @ApiPropertyOptional({ type: String }) owned_by?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Unix seconds, as the provider sent it' }) created?: number;
  @ApiPropertyOptional({
    type: PricingPatchDto,
    description:
      'The price table’s rates for this model, in the units of a pricing override (absent: the table does not price it; a request is charged these unless an override replaces some)',
  })
  catalogue_price?: PricingPatchDto;
}

@ApiSchema({ name: 'ProviderModelList' })
export class ProviderModelListDto {
  @ApiProperty({ type: [ProviderModelDto], description: 'Every model listed by at least one key, once' })
  models: ProviderModelDto[];
  @ApiProperty({ type: 'integer' }) count: number;
  @ApiProperty({
    type: [KeyStatusDto],
    description: 'One result per enabled key asked; a failure never fails the call',
  })
  key_statuses: KeyStatusDto[];
}
