import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../../../core/errors/routing-info.dto.js';
import { IsNullable, IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';
import { RULE_SCOPES, type RuleScope } from '../entities/routing-rule.entity.js';

export const MAX_TARGETS = 20;
export const MAX_RULE_FALLBACKS = 10;
const MAX_EXPRESSION_LENGTH = 4096;
const MAX_PRIORITY = 1_000_000;

@ApiSchema({ name: 'RoutingRuleTarget' })
export class RoutingTargetDto {
  @ApiPropertyOptional({ ...PROVIDER_ID_SCHEMA, description: 'Provider to route to; absent: the request’s' })
  @IsOptionalNonNull()
  @IsIn(PROVIDER_IDS)
  provider?: ProviderId;

  @ApiPropertyOptional({ maxLength: 512, description: 'Model to route to; absent: the request’s' })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  model?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Pins a key of `provider` by id (needs `provider`)' })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  key_id?: string;

  @ApiProperty({
    type: Number,
    exclusiveMinimum: true,
    minimum: 0,
    maximum: 1,
    description: 'Share of matching requests; the weights of a rule’s targets sum to 1',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(Number.MIN_VALUE, { message: 'weight must be greater than 0' })
  @Max(1)
  weight: number;
}

/** Fields a create and an update share (an update changes only the fields it carries). */
class RoutingRuleFieldsDto {
  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ default: true, description: 'A disabled rule is never evaluated' })
  @IsOptionalNonNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_RULE_FALLBACKS,
    description:
      'Tried in order when the target fails: `provider/model`, or `provider` alone (the request’s model). Absent or empty: the request’s own fallbacks',
    example: ['anthropic/claude-sonnet-4-5'],
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_RULE_FALLBACKS, maxLength: 600 })
  fallbacks?: unknown[];

  @ApiPropertyOptional({ enum: RULE_SCOPES, default: 'global', description: 'Who the rule applies to' })
  @IsOptionalNonNull()
  @IsIn(RULE_SCOPES)
  scope?: RuleScope;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The team, customer or virtual key id; required unless `scope` is global (then absent or null)',
  })
  @IsNullable()
  @IsString()
  @MaxLength(255)
  scope_id?: string | null;

  @ApiPropertyOptional({
    type: Number,
    default: 0,
    minimum: -MAX_PRIORITY,
    maximum: MAX_PRIORITY,
    description: 'Order within a scope: lower first',
  })
  @IsOptionalNonNull()
  @IsInt()
  @Min(-MAX_PRIORITY)
  @Max(MAX_PRIORITY)
  priority?: number;

  @ApiPropertyOptional({
    default: false,
    description: 'After this rule matches, rules are evaluated again with its target (depth limited, no cycles)',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  chain_rule?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The dashboard’s rule-builder tree, stored as sent',
  })
  @IsNullable()
  @IsObject()
  query?: Record<string, unknown> | null;
}

@ApiSchema({ name: 'RoutingRuleCreateRequest' })
export class CreateRoutingRuleDto extends RoutingRuleFieldsDto {
  @ApiProperty({ maxLength: 255, description: 'Unique within the scope and scope id', example: 'premium-to-gpt-4o' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiProperty({
    maxLength: MAX_EXPRESSION_LENGTH,
    description: 'CEL expression over the request (docs/governance.md "Routing rules"); must compile',
    example: 'headers["x-tier"] == "premium"',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_EXPRESSION_LENGTH)
  cel_expression: string;

  @ApiProperty({ type: [RoutingTargetDto], minItems: 1, maxItems: MAX_TARGETS })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_TARGETS)
  @ValidateNested({ each: true })
  @Type(() => RoutingTargetDto)
  targets: RoutingTargetDto[];
}

/** PUT changes the fields it carries; `targets` sent replaces them all. */
@ApiSchema({ name: 'RoutingRuleUpdateRequest' })
export class UpdateRoutingRuleDto extends RoutingRuleFieldsDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_EXPRESSION_LENGTH, description: 'CEL expression; must compile' })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_EXPRESSION_LENGTH)
  cel_expression?: string;

  @ApiPropertyOptional({ type: [RoutingTargetDto], minItems: 1, maxItems: MAX_TARGETS })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_TARGETS)
  @ValidateNested({ each: true })
  @Type(() => RoutingTargetDto)
  targets?: RoutingTargetDto[];
}

@ApiSchema({ name: 'RoutingRule' })
export class RoutingRuleDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty()
  cel_expression: string;

  @ApiProperty({ type: [RoutingTargetDto] })
  targets: RoutingTargetDto[];

  @ApiProperty({ type: [String] })
  fallbacks: string[];

  @ApiProperty({ enum: RULE_SCOPES })
  scope: RuleScope;

  @ApiProperty({ type: String, nullable: true })
  scope_id: string | null;

  @ApiProperty()
  priority: number;

  @ApiProperty()
  chain_rule: boolean;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  query: Record<string, unknown> | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'RoutingRuleOperationResponse' })
export class RoutingRuleOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: RoutingRuleDto })
  rule: RoutingRuleDto;
}

@ApiSchema({ name: 'RoutingRuleList' })
export class RoutingRuleListDto {
  @ApiProperty({ type: [RoutingRuleDto], description: 'By scope (virtual key, team, customer, global), then priority' })
  rules: RoutingRuleDto[];

  @ApiProperty()
  count: number;
}

export class RoutingRuleQueryDto {
  @ApiPropertyOptional({ enum: RULE_SCOPES, description: 'Only rules of this scope' })
  @IsOptionalNonNull()
  @IsIn(RULE_SCOPES)
  scope?: RuleScope;

  @ApiPropertyOptional({ maxLength: 255, description: 'Only rules of this scope id' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  scope_id?: string;
}
