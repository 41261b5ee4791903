import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { UpstreamAuthViewDto } from './upstream-auth.dto.js';

/** AgentRegistrationView: the stored registration with every upstream secret redacted. */
@ApiSchema({ name: 'AgentRegistrationView' })
export class AgentRegistrationViewDto {
  @ApiProperty({ type: String, example: 'travel-planner' }) name: string;
  @ApiProperty({ type: String, format: 'uri' }) agent_card_url: string;
  @ApiProperty({ type: Boolean }) enabled: boolean;
  @ApiProperty({ type: Boolean }) allow_by_default: boolean;
  @ApiProperty({ type: Boolean }) forward_accepted_credential: boolean;
  @ApiProperty({ type: Boolean }) forward_accepted_credential_overrides_auth: boolean;
  @ApiPropertyOptional({ type: UpstreamAuthViewDto }) discovery_auth?: UpstreamAuthViewDto;
  @ApiPropertyOptional({ type: UpstreamAuthViewDto }) runtime_auth?: UpstreamAuthViewDto;
  @ApiPropertyOptional({ type: [String] }) extension_uris?: string[];
  @ApiPropertyOptional({ type: [String] }) virtual_key_ids?: string[];
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

@ApiSchema({ name: 'AgentList' })
export class AgentListDto {
  @ApiProperty({ type: [AgentRegistrationViewDto] }) agents: AgentRegistrationViewDto[];
  @ApiProperty({ type: Number }) count: number;
}

@ApiSchema({ name: 'AgentCardInterface' })
export class AgentInterfaceDto {
  @ApiProperty({ type: String, format: 'uri' }) url: string;
  @ApiProperty({ type: String, enum: ['JSONRPC', 'HTTP+JSON'] }) protocolBinding: string;
  @ApiProperty({ type: String, example: '1.0' }) protocolVersion: string;
  @ApiPropertyOptional({ type: String }) tenant?: string;
}

@ApiSchema({ name: 'AgentCardSecurityScheme' })
export class AgentSecuritySchemeDto {
  @ApiProperty({ type: String, description: "Key in the card's `securitySchemes`." }) name: string;
  @ApiProperty({
    type: String,
    enum: ['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS'],
    description: 'Kind of scheme, whichever JSON shape the card used.',
  })
  type: string;
}

@ApiSchema({ name: 'AgentCardExtension' })
export class AgentExtensionDto {
  @ApiProperty({ type: String }) uri: string;
  @ApiProperty({ type: Boolean }) required: boolean;
  @ApiPropertyOptional({ type: String }) description?: string;
}

/** Result of POST /api/agents/inspect: the validated card and what registration needs from it. */
@ApiSchema({ name: 'AgentInspection' })
export class AgentInspectionDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The upstream Agent Card as fetched.' })
  card: Record<string, unknown>;
  @ApiProperty({ type: [AgentInterfaceDto], description: 'Supported interfaces the gateway can proxy (A2A 1.0).' })
  interfaces: AgentInterfaceDto[];
  @ApiProperty({ type: [AgentSecuritySchemeDto] }) security_schemes: AgentSecuritySchemeDto[];
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'Each entry lists scheme names that together satisfy the card (OR across entries).',
  })
  security_requirements: string[][];
  @ApiProperty({ type: [AgentExtensionDto] }) extensions: AgentExtensionDto[];
}
