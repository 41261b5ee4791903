import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { GatewayErrorDto } from '../../../../core/errors/gateway-error.dto.js';
import { PROVIDER_ID_SCHEMA, type ProviderId } from '../../providers/provider-ids.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { MAX_MODEL_NAME_LENGTH } from './map-fields.js';

export const MAX_TEST_PROMPT_LENGTH = 1000;

/** `POST /api/providers/{provider}/test`: one small chat completion on one key. */
@ApiSchema({ name: 'ProviderTestRequest' })
export class ProviderTestRequestDto {
  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: MAX_MODEL_NAME_LENGTH,
    description: 'The model to ask, as the provider names it (no `<provider>/` prefix); a key’s alias applies.',
    example: 'gpt-4o-mini',
  })
  @IsString()
  @IsNotEmpty({ message: 'model must not be empty' })
  @MaxLength(MAX_MODEL_NAME_LENGTH)
  model: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description:
      'The key to test (a disabled one too). Absent: a key is picked by weight among the enabled keys serving the model.',
  })
  @IsOptionalNonNull()
  @IsUUID('all', { message: 'key_id must be a UUID' })
  key_id?: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: MAX_TEST_PROMPT_LENGTH,
    default: 'Say hello in one short sentence.',
    description: 'The user message sent (the answer is capped at 64 tokens).',
  })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty({ message: 'prompt must not be empty' })
  @MaxLength(MAX_TEST_PROMPT_LENGTH)
  prompt?: string;
}

@ApiSchema({ name: 'ProviderTestUsage' })
export class ProviderTestUsageDto {
  @ApiProperty({ type: 'integer' }) prompt_tokens: number;
  @ApiProperty({ type: 'integer' }) completion_tokens: number;
  @ApiProperty({ type: 'integer' }) total_tokens: number;
}

/** What the test found: the provider's answer, or its error as the gateway classifies it. */
@ApiSchema({ name: 'ProviderTestResult' })
export class ProviderTestResultDto {
  @ApiProperty({ enum: ['success', 'failed'], description: 'Whether the provider answered' })
  status: 'success' | 'failed';

  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'Provider tested' })
  provider: ProviderId;

  @ApiProperty({ type: String, description: 'Model sent upstream (after the key’s alias)' })
  model: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'Key used' })
  key_id: string;

  @ApiProperty({ type: String, description: 'Name of the key used' })
  key_name: string;

  @ApiProperty({ type: 'integer', description: 'Time from sending to the answer or the failure, in milliseconds' })
  latency_ms: number;

  @ApiPropertyOptional({ type: String, description: 'The answer’s text, when the provider answered' })
  answer?: string;

  @ApiPropertyOptional({ type: ProviderTestUsageDto, description: 'Tokens the provider reported' })
  usage?: ProviderTestUsageDto;

  @ApiPropertyOptional({
    type: () => GatewayErrorDto,
    description: 'The provider’s refusal or the transport failure, as /v1 would relay it',
  })
  error?: GatewayErrorDto;
}
