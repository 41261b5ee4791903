import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsNotIn, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsHttpUrl } from '../../../core/validation/is-http-url.decorator.js';
import { UpstreamAuthDto } from './upstream-auth.dto.js';
import { IsOptionalNonNull, IsStringList } from '../../../core/validation/field.decorators.js';

export const AGENT_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Names that would collide with sibling routes under /api/agents. */
export const RESERVED_AGENT_NAMES = ['history', 'push-configs', 'inspect'] as const;

/** AgentCreateRequest. */
@ApiSchema({ name: 'AgentCreateRequest' })
export class CreateAgentDto {
  @ApiProperty({
    type: String,
    description: `Registration name, also the data-plane path segment. Not one of ${RESERVED_AGENT_NAMES.join(', ')}.`,
    pattern: AGENT_NAME_PATTERN.source,
    maxLength: 255,
    example: 'travel-planner',
  })
  @IsString()
  @MaxLength(255)
  @Matches(AGENT_NAME_PATTERN, { message: 'name must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ (lowercase words joined by -)' })
  @IsNotIn([...RESERVED_AGENT_NAMES], {
    message: `name must not be one of ${RESERVED_AGENT_NAMES.join(', ')} (reserved)`,
  })
  name: string;

  @ApiProperty({
    type: String,
    format: 'uri',
    maxLength: 2048,
    description: 'Absolute http(s) URL of the upstream A2A v1 Agent Card, without user info.',
    example: 'https://agent.example.com/.well-known/agent-card.json',
  })
  @IsHttpUrl()
  agent_card_url: string;

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'Disabled agents are not fetched nor served.' })
  @IsOptionalNonNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'When true, any valid virtual key may access the agent without an explicit grant.',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  allow_by_default?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Forward the credential accepted by the gateway to the upstream agent.',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  forward_accepted_credential?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Lets the forwarded credential override the configured upstream authentication.',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  forward_accepted_credential_overrides_auth?: boolean;

  @ApiPropertyOptional({ type: UpstreamAuthDto, description: 'Authentication used to fetch the Agent Card.' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => UpstreamAuthDto)
  discovery_auth?: UpstreamAuthDto;

  @ApiPropertyOptional({ type: UpstreamAuthDto, description: 'Authentication used for A2A calls to the agent.' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => UpstreamAuthDto)
  runtime_auth?: UpstreamAuthDto;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    maxItems: 1000,
    description: 'Virtual key IDs granted access. Empty, duplicate and unknown IDs are rejected.',
  })
  // Items are checked in the service so the error names the index (`virtual_key_ids[1]`).
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 64, nonEmpty: false })
  virtual_key_ids?: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 2048 },
    maxItems: 100,
    description:
      'A2A extension URIs enabled for upstream requests: absolute, unique, declared by the card; every extension the card marks required must be listed.',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 100, maxLength: 2048, nonEmpty: false })
  extension_uris?: string[];
}

/** PUT body: the whole registration. `name` may be omitted; when present it must equal the path name. */
@ApiSchema({ name: 'AgentUpdateRequest' })
export class UpdateAgentDto extends OmitType(CreateAgentDto, ['name'] as const) {
  @ApiPropertyOptional({
    type: String,
    maxLength: 255,
    description: 'Must equal the name in the path (renaming is not supported).',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  name?: string;
}

/** Body of POST /api/agents/inspect. */
@ApiSchema({ name: 'AgentInspectRequest' })
export class InspectAgentDto {
  @ApiProperty({
    type: String,
    format: 'uri',
    maxLength: 2048,
    description: 'Absolute http(s) Agent Card URL, without user info.',
  })
  @IsHttpUrl()
  agent_card_url: string;

  @ApiPropertyOptional({ type: UpstreamAuthDto, description: 'Authentication used to fetch the card.' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => UpstreamAuthDto)
  discovery_auth?: UpstreamAuthDto;
}
