import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../inference/index.js';
import { IsNullable, IsOptionalNonNull } from '../../../core/validation/field.decorators.js';
import { BudgetViewDto, RateLimitViewDto } from '../objects/dto/limits.dto.js';
import { OwnerLimitsInputDto, OwnerLimitsUpdateDto } from '../objects/dto/owner-input.dto.js';
import { MODEL_CONFIG_SCOPES, type ModelConfigScope } from '../objects/entities/model-config.entity.js';

const PROVIDER_MESSAGE = `provider must be one of ${PROVIDER_IDS.join(', ')}`;

@ApiSchema({ name: 'ModelConfigCreateRequest' })
export class CreateModelConfigDto extends OwnerLimitsInputDto {
  @ApiProperty({
    description: 'The model, exactly as requested, or `*` for every model',
    maxLength: 255,
    example: 'gpt-4o',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  model_name: string;

  @ApiPropertyOptional({
    ...PROVIDER_ID_SCHEMA,
    nullable: true,
    description: 'Only on this provider; absent: on every provider',
  })
  @IsNullable()
  @IsIn(PROVIDER_IDS, { message: PROVIDER_MESSAGE })
  provider?: ProviderId | null;

  @ApiPropertyOptional({ enum: MODEL_CONFIG_SCOPES, default: 'global', description: 'Who it covers; immutable' })
  @IsOptionalNonNull()
  @IsIn(MODEL_CONFIG_SCOPES)
  scope?: ModelConfigScope;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The virtual key or user (scope virtual_key or user); immutable',
  })
  @IsOptionalNonNull()
  @IsUUID('all', { message: 'scope_id must be a UUID' })
  scope_id?: string;

  @ApiPropertyOptional({ description: 'Default calendar alignment of its budgets', default: false })
  @IsOptionalNonNull()
  @IsBoolean()
  calendar_aligned?: boolean;
}

/** PUT changes the fields it carries; `scope` and `scope_id` cannot change. */
@ApiSchema({ name: 'ModelConfigUpdateRequest' })
export class UpdateModelConfigDto extends OwnerLimitsUpdateDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  model_name?: string;

  @ApiPropertyOptional({ ...PROVIDER_ID_SCHEMA, nullable: true, description: 'null: every provider' })
  @IsNullable()
  @IsIn(PROVIDER_IDS, { message: PROVIDER_MESSAGE })
  provider?: ProviderId | null;

  @ApiPropertyOptional({ description: 'Sent without budgets, applies to every stored budget' })
  @IsOptionalNonNull()
  @IsBoolean()
  calendar_aligned?: boolean;
}

@ApiSchema({ name: 'ModelConfig' })
export class ModelConfigDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  model_name: string;

  @ApiProperty({ ...PROVIDER_ID_SCHEMA, nullable: true })
  provider: ProviderId | null;

  @ApiProperty({ enum: MODEL_CONFIG_SCOPES })
  scope: ModelConfigScope;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  scope_id: string | null;

  @ApiProperty()
  calendar_aligned: boolean;

  @ApiProperty({ type: [BudgetViewDto] })
  budgets: BudgetViewDto[];

  @ApiProperty({ type: RateLimitViewDto, nullable: true })
  rate_limit: RateLimitViewDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'ModelConfigList' })
export class ModelConfigListDto {
  @ApiProperty({ type: [ModelConfigDto] })
  model_configs: ModelConfigDto[];

  @ApiProperty()
  count: number;
}

@ApiSchema({ name: 'ModelConfigOperationResponse' })
export class ModelConfigOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: ModelConfigDto })
  model_config: ModelConfigDto;
}
