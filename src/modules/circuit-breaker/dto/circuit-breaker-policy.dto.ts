import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  registerDecorator,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { parseGoDuration } from '../../../core/config/duration.js';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../inference/index.js';
import {
  IsNullable,
  IsOptionalNonNull,
  IsStringList,
  ValidatesWith,
} from '../../../core/validation/field.decorators.js';
import { AGENT_NAME_PATTERN } from '../../agents/index.js';
import { CONDITION_OPERATORS, SIGNAL_SOURCES } from '../entities/circuit-breaker-policy.entity.js';

export const MAX_SIGNALS = 20;
export const MAX_PRIMARY_KEYS = 100;
/** An HTTP header field name: an RFC 7230 token. */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_NAME_MESSAGE = 'must be an HTTP header name (RFC 7230 token characters)';
const PROVIDER_MESSAGE = `must be one of ${PROVIDER_IDS.join(', ')}`;

/** Refused when the sibling field `other` is set too (the two are alternatives). */
function IsAbsentWith(other: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isAbsentWith',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (_value: unknown, args: ValidationArguments) =>
          (args.object as Record<string, unknown>)[other] === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? String(propertyName)} cannot be set together with ${other} (use one of them)`,
      },
    });
  };
}

const goDurationProblem = (value: unknown) =>
  typeof value === 'string' && parseGoDuration(value) !== undefined
    ? undefined
    : ' must be a positive Go duration (30s, 1m30s, 1.5h, 250ms)';

const duplicateProblem = (value: unknown) => {
  if (!Array.isArray(value)) return undefined;
  const seen = new Set<unknown>();
  for (const item of value) {
    if (seen.has(item)) return ` must not list a key twice (${String(item)})`;
    seen.add(item);
  }
  return undefined;
};

@ApiSchema({ name: 'CircuitBreakerSignalInput' })
export class CircuitSignalInputDto {
  @ApiPropertyOptional({
    enum: SIGNAL_SOURCES,
    default: 'response_header',
    description: 'Where the signal is read: a response header of the primary (the only source)',
  })
  @IsOptionalNonNull()
  @IsIn(SIGNAL_SOURCES)
  source?: (typeof SIGNAL_SOURCES)[number];

  @ApiProperty({ maxLength: 255, pattern: HEADER_NAME_PATTERN.source, description: 'Response header to watch' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(HEADER_NAME_PATTERN, { message: `header_name ${HEADER_NAME_MESSAGE}` })
  header_name: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 1024,
    description: 'Trips when the header equals this (case-insensitive). Not with `header_contains`',
  })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  header_value?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 1024,
    description:
      'Trips when the header contains this (case-insensitive). Not with `header_value`; neither: the header’s presence trips',
  })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  @IsAbsentWith('header_value')
  header_contains?: string;
}

@ApiSchema({ name: 'CircuitBreakerConditionInput' })
export class CircuitConditionInputDto {
  @ApiPropertyOptional({
    enum: CONDITION_OPERATORS,
    default: 'OR',
    description: 'OR: any signal trips; AND: every signal must match the same response',
  })
  @IsOptionalNonNull()
  @IsIn(CONDITION_OPERATORS)
  operator?: (typeof CONDITION_OPERATORS)[number];

  @ApiProperty({ type: [CircuitSignalInputDto], minItems: 1, maxItems: MAX_SIGNALS })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_SIGNALS)
  @ValidateNested({ each: true })
  @Type(() => CircuitSignalInputDto)
  signals: CircuitSignalInputDto[];
}

/** The fields of a create and of a replace (PUT replaces the whole policy). */
class CircuitBreakerPolicyFieldsDto {
  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'Provider whose responses are watched' })
  @IsIn(PROVIDER_IDS, { message: `primary_provider ${PROVIDER_MESSAGE}` })
  primary_provider: ProviderId;

  @ApiProperty({ minLength: 1, maxLength: 512, description: 'Model whose responses are watched', example: 'gpt-4o' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  primary_model: string;

  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'Provider that serves while the circuit is open' })
  @IsIn(PROVIDER_IDS, { message: `fallback_provider ${PROVIDER_MESSAGE}` })
  fallback_provider: ProviderId;

  @ApiProperty({
    minLength: 1,
    maxLength: 512,
    description: 'Model that serves while the circuit is open; not the primary provider and model themselves',
    example: 'claude-sonnet-4-5',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  fallback_model: string;

  @ApiProperty({ type: CircuitConditionInputDto, description: 'When a response of the primary trips the circuit' })
  @IsObject()
  @ValidateNested()
  @Type(() => CircuitConditionInputDto)
  condition: CircuitConditionInputDto;

  @ApiPropertyOptional({ default: true, description: 'A disabled policy never trips and its circuits are closed' })
  @IsOptionalNonNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_PRIMARY_KEYS,
    uniqueItems: true,
    description:
      'Ids of keys of `primary_provider`, each with a sub-circuit `<name>\\u0000<key_id>`; the main circuit opens when all are open. Absent or empty: the provider as a whole',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_PRIMARY_KEYS, maxLength: 255 })
  @ValidatesWith('noDuplicates', duplicateProblem)
  primary_key_ids?: string[];

  @ApiPropertyOptional({
    maxLength: 64,
    default: '30s',
    description: 'Go duration a circuit stays open when no valid cooldown header came; kept as written',
    example: '1m30s',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  @ValidatesWith('isGoDuration', goDurationProblem)
  default_cooldown?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 255,
    pattern: HEADER_NAME_PATTERN.source,
    description: 'Response header whose value (milliseconds) sets the cooldown when present and valid; null: none',
    example: 'x-ratelimit-reset-ms',
  })
  @IsNullable()
  @IsString()
  @MaxLength(255)
  @Matches(HEADER_NAME_PATTERN, { message: `cooldown_header ${HEADER_NAME_MESSAGE}` })
  cooldown_header?: string | null;
}

const NAME_SCHEMA = {
  type: String,
  maxLength: 255,
  pattern: AGENT_NAME_PATTERN.source,
  description: 'Unique policy name, also the key of its main circuit',
  example: 'openai-overload',
} as const;
const NAME_MESSAGE = 'name must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ (lowercase words joined by -)';

@ApiSchema({ name: 'CircuitBreakerPolicyCreateRequest' })
export class CreateCircuitBreakerPolicyDto extends CircuitBreakerPolicyFieldsDto {
  @ApiProperty(NAME_SCHEMA)
  @IsString()
  @MaxLength(255)
  @Matches(AGENT_NAME_PATTERN, { message: NAME_MESSAGE })
  name: string;
}

/** PUT replaces the whole policy: the same body as a create, the name optional (the path's when absent). */
@ApiSchema({ name: 'CircuitBreakerPolicyReplaceRequest' })
export class ReplaceCircuitBreakerPolicyDto extends CircuitBreakerPolicyFieldsDto {
  @ApiPropertyOptional({ ...NAME_SCHEMA, description: 'When present, must equal the name in the path' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  @Matches(AGENT_NAME_PATTERN, { message: NAME_MESSAGE })
  name?: string;
}

@ApiSchema({ name: 'CircuitBreakerSignal' })
export class CircuitSignalDto {
  @ApiProperty({ enum: SIGNAL_SOURCES })
  source: (typeof SIGNAL_SOURCES)[number];

  @ApiProperty()
  header_name: string;

  @ApiPropertyOptional({ description: 'Exact match, case-insensitive' })
  header_value?: string;

  @ApiPropertyOptional({ description: 'Substring match, case-insensitive' })
  header_contains?: string;
}

@ApiSchema({ name: 'CircuitBreakerCondition' })
export class CircuitConditionDto {
  @ApiProperty({ enum: CONDITION_OPERATORS })
  operator: (typeof CONDITION_OPERATORS)[number];

  @ApiProperty({ type: [CircuitSignalDto] })
  signals: CircuitSignalDto[];
}

@ApiSchema({ name: 'CircuitBreakerPolicy' })
export class CircuitBreakerPolicyDto {
  @ApiProperty({ description: 'Also the key of the policy’s main circuit' })
  name: string;

  @ApiProperty(PROVIDER_ID_SCHEMA)
  primary_provider: ProviderId;

  @ApiProperty()
  primary_model: string;

  @ApiProperty(PROVIDER_ID_SCHEMA)
  fallback_provider: ProviderId;

  @ApiProperty()
  fallback_model: string;

  @ApiProperty({ type: CircuitConditionDto })
  condition: CircuitConditionDto;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({ type: [String], description: 'Empty when the policy watches the provider as a whole' })
  primary_key_ids: string[];

  @ApiProperty({ description: 'Go duration, as written', example: '30s' })
  default_cooldown: string;

  @ApiProperty({ type: String, nullable: true })
  cooldown_header: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'CircuitBreakerPolicyList' })
export class CircuitBreakerPolicyListDto {
  @ApiProperty({ type: [CircuitBreakerPolicyDto], description: 'By name' })
  policies: CircuitBreakerPolicyDto[];

  @ApiProperty({ type: 'integer' })
  count: number;
}
