import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { PaginationDto, PageQueryDto } from '../../../../core/http/paging.dto.js';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../../inference/index.js';
import { IsNullable, IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { PRICING_REQUEST_TYPES, PRICING_SCOPE_KINDS, type PricingScopeKind } from '../pricing-scopes.js';

const MAX_RATE = 1_000_000;
const MATCH_TYPES = ['exact', 'wildcard'] as const;
/** Request types as written: the stream variants fold into their base type. */
const WRITABLE_REQUEST_TYPES = [
  ...PRICING_REQUEST_TYPES,
  'chat_completion_stream',
  'text_completion_stream',
  'responses_stream',
] as const;

function Rate(description: string): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    ApiPropertyOptional({ type: Number, minimum: 0, maximum: MAX_RATE, description })(target, key);
    IsOptionalNonNull()(target, key);
    IsNumber({ allowNaN: false, allowInfinity: false })(target, key);
    Min(0)(target, key);
    Max(MAX_RATE)(target, key);
  };
}

/** USD per unit; only the fields set replace the price table's rates. */
@ApiSchema({ name: 'PricingPatch' })
export class PricingPatchDto {
  @Rate('USD per input token (cache reads and writes excluded when they have their own rate)')
  input_cost_per_token?: number;

  @Rate('USD per output token')
  output_cost_per_token?: number;

  @Rate('USD per cached input token read')
  cache_read_input_token_cost?: number;

  @Rate('USD per input token written to the cache')
  cache_creation_input_token_cost?: number;

  @Rate('USD per reasoning token (else reasoning is output)')
  output_cost_per_reasoning_token?: number;

  @Rate('USD per web search')
  search_context_cost_per_query?: number;

  @Rate('USD per request')
  input_cost_per_request?: number;
}

class PricingOverrideFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, description: 'Virtual key scopes' })
  @IsNullable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  virtual_key_id?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 255,
    description: 'User scopes (stored; applied once data-plane requests carry a user)',
  })
  @IsNullable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  user_id?: string | null;

  @ApiPropertyOptional({ ...PROVIDER_ID_SCHEMA, nullable: true, description: 'Provider scopes' })
  @IsNullable()
  @IsIn(PROVIDER_IDS)
  provider_id?: ProviderId | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, description: 'Provider key scopes (key id)' })
  @IsNullable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  provider_key_id?: string | null;
}

@ApiSchema({ name: 'PricingOverrideCreateRequest' })
export class CreatePricingOverrideDto extends PricingOverrideFieldsDto {
  @ApiProperty({ maxLength: 255, example: 'negotiated gpt-4o rate' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiProperty({
    enum: PRICING_SCOPE_KINDS,
    description: 'Which requests it covers; it takes exactly the ids the kind names',
  })
  @IsIn(PRICING_SCOPE_KINDS)
  scope_kind: PricingScopeKind;

  @ApiProperty({ enum: MATCH_TYPES, description: '`exact` model name, or `wildcard`: a prefix ending `*`' })
  @IsIn(MATCH_TYPES)
  match_type: 'exact' | 'wildcard';

  @ApiProperty({ maxLength: 512, example: 'gpt-4o*' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  pattern: string;

  @ApiProperty({ type: [String], enum: WRITABLE_REQUEST_TYPES, minItems: 1, maxItems: 20 })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(20)
  @IsIn(WRITABLE_REQUEST_TYPES, { each: true })
  request_types: string[];

  @ApiProperty({ type: PricingPatchDto })
  @IsObject()
  @ValidateNested()
  @Type(() => PricingPatchDto)
  patch: PricingPatchDto;
}

/** PUT merges the fields it carries; `scope_kind` sent resets every scope id; `patch` sent replaces the whole patch. */
@ApiSchema({ name: 'PricingOverrideUpdateRequest' })
export class UpdatePricingOverrideDto extends PricingOverrideFieldsDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ enum: PRICING_SCOPE_KINDS })
  @IsOptionalNonNull()
  @IsIn(PRICING_SCOPE_KINDS)
  scope_kind?: PricingScopeKind;

  @ApiPropertyOptional({ enum: MATCH_TYPES })
  @IsOptionalNonNull()
  @IsIn(MATCH_TYPES)
  match_type?: 'exact' | 'wildcard';

  @ApiPropertyOptional({ maxLength: 512 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  pattern?: string;

  @ApiPropertyOptional({ type: [String], enum: WRITABLE_REQUEST_TYPES, minItems: 1, maxItems: 20 })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(20)
  @IsIn(WRITABLE_REQUEST_TYPES, { each: true })
  request_types?: string[];

  @ApiPropertyOptional({ type: PricingPatchDto })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => PricingPatchDto)
  patch?: PricingPatchDto;
}

@ApiSchema({ name: 'PricingOverride' })
export class PricingOverrideDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: PRICING_SCOPE_KINDS })
  scope_kind: PricingScopeKind;

  @ApiProperty({ type: String, nullable: true })
  virtual_key_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  user_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  provider_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  provider_key_id: string | null;

  @ApiProperty({ enum: MATCH_TYPES })
  match_type: 'exact' | 'wildcard';

  @ApiProperty()
  pattern: string;

  @ApiProperty({ type: [String] })
  request_types: string[];

  @ApiProperty({ type: PricingPatchDto })
  patch: PricingPatchDto;

  @ApiProperty({ description: '`patch` as a JSON string (as this product family stores it)' })
  pricing_patch: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'PricingOverrideOperationResponse' })
export class PricingOverrideOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: PricingOverrideDto })
  pricing_override: PricingOverrideDto;
}

@ApiSchema({ name: 'PricingOverrideList' })
export class PricingOverrideListDto {
  @ApiProperty({ type: [PricingOverrideDto] })
  pricing_overrides: PricingOverrideDto[];

  @ApiProperty({ description: 'Items in this page' })
  count: number;

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}

export class PricingOverrideQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: PRICING_SCOPE_KINDS })
  @IsOptionalNonNull()
  @IsIn(PRICING_SCOPE_KINDS)
  scope_kind?: PricingScopeKind;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  virtual_key_id?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  user_id?: string;

  @ApiPropertyOptional({ ...PROVIDER_ID_SCHEMA })
  @IsOptionalNonNull()
  @IsIn(PROVIDER_IDS)
  provider_id?: ProviderId;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  provider_key_id?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Case-insensitive substring of the name or pattern' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  search?: string;
}
