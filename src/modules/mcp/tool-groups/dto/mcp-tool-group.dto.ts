import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsNotEmpty,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { PageQueryDto } from '../../../../core/http/paging.dto.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { IntegerQuery } from '../../../../core/validation/integer-query.decorator.js';
import { MCP_CLIENT_NAME_PATTERN } from '../../mcp-contract.js';

/** Limits of one group (reach the generated constraints through the OpenAPI document). */
export const MAX_TOOL_GROUP_NAME = 64;
export const MAX_TOOL_GROUP_DESCRIPTION = 1024;
export const MAX_TOOL_GROUP_TOOLS = 500;
export const MAX_TOOL_NAME = 128;
const NAME_MESSAGE = 'name must be ASCII letters, digits and _ without a leading digit (no - or spaces)';

@ApiSchema({ name: 'McpToolGroupTool' })
export class McpToolGroupToolDto {
  @ApiProperty({ type: String, format: 'uuid', description: 'An existing MCP client.' })
  @IsUUID('all', { message: 'mcp_client_id must be a UUID' })
  mcp_client_id: string;

  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: MAX_TOOL_NAME,
    description:
      'A tool of that client, by its own name (`echo`, not `weather-echo`). A name the client does not list now is accepted: it is granted once the server lists it.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_TOOL_NAME)
  tool_name: string;
}

/** What create and update take besides the name. */
export class McpToolGroupFieldsDto {
  @ApiPropertyOptional({ type: String, maxLength: MAX_TOOL_GROUP_DESCRIPTION, default: '' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(MAX_TOOL_GROUP_DESCRIPTION)
  description?: string;

  @ApiPropertyOptional({
    type: [McpToolGroupToolDto],
    maxItems: MAX_TOOL_GROUP_TOOLS,
    default: [],
    description: 'The tools of the group; each pair at most once. Replaced whole on update.',
  })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_TOOL_GROUP_TOOLS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => McpToolGroupToolDto)
  tools?: McpToolGroupToolDto[];
}

@ApiSchema({ name: 'McpToolGroupCreateRequest' })
export class CreateMcpToolGroupDto extends McpToolGroupFieldsDto {
  @ApiProperty({
    type: String,
    maxLength: MAX_TOOL_GROUP_NAME,
    pattern: MCP_CLIENT_NAME_PATTERN.source,
    description: 'Unique among tool groups (409 `already_exists`); the rule of MCP client names.',
    example: 'read_only',
  })
  @IsString()
  @MaxLength(MAX_TOOL_GROUP_NAME)
  @Matches(MCP_CLIENT_NAME_PATTERN, { message: NAME_MESSAGE })
  name: string;
}

/** PUT: the fields sent replace the stored ones (`tools` whole); the others are kept. */
@ApiSchema({ name: 'McpToolGroupUpdateRequest' })
export class UpdateMcpToolGroupDto extends McpToolGroupFieldsDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_TOOL_GROUP_NAME,
    pattern: MCP_CLIENT_NAME_PATTERN.source,
    description: 'New name.',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(MAX_TOOL_GROUP_NAME)
  @Matches(MCP_CLIENT_NAME_PATTERN, { message: NAME_MESSAGE })
  name?: string;
}

export class McpToolGroupQueryDto extends PageQueryDto {
  @IntegerQuery({ minimum: 1, maximum: 100, default: 25, description: 'Page size' })
  declare limit?: number;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_TOOL_GROUP_NAME,
    description: 'Name substring (case-insensitive).',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(MAX_TOOL_GROUP_NAME)
  search?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'Only groups holding at least one tool of this MCP client.',
  })
  @IsOptionalNonNull()
  @IsUUID('all', { message: 'mcp_client_id must be a UUID' })
  mcp_client_id?: string;
}

// ---- views ----

@ApiSchema({ name: 'McpToolGroup' })
export class McpToolGroupViewDto {
  @ApiProperty({ type: String, format: 'uuid' }) id: string;
  @ApiProperty({ type: String }) name: string;
  @ApiProperty({ type: String }) description: string;
  @ApiProperty({ type: [McpToolGroupToolDto], description: 'Sorted by client id, then tool name.' })
  tools: McpToolGroupToolDto[];
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

@ApiSchema({ name: 'McpToolGroupResponse' })
export class McpToolGroupResponseDto {
  @ApiProperty({ type: McpToolGroupViewDto }) tool_group: McpToolGroupViewDto;
}

@ApiSchema({ name: 'McpToolGroupList' })
export class McpToolGroupListDto {
  @ApiProperty({ type: [McpToolGroupViewDto], description: 'Sorted by name.' }) tool_groups: McpToolGroupViewDto[];
  @ApiProperty({ type: 'integer', description: 'Groups on this page.' }) count: number;
  @ApiProperty({ type: 'integer', description: 'Groups matching the filters.' }) total_count: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty({ type: 'integer' }) offset: number;
}
