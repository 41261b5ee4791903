import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import {
  CreateMcpToolGroupDto,
  McpToolGroupListDto,
  McpToolGroupQueryDto,
  McpToolGroupResponseDto,
  UpdateMcpToolGroupDto,
} from './dto/mcp-tool-group.dto.js';
import { McpToolGroupsService } from './mcp-tool-groups.service.js';

const ID_PARAM = { name: 'id', description: 'Tool group ID (uuid).', format: 'uuid' };

@ApiTags('MCP tool groups')
@Controller('api/mcp/tool-groups')
export class McpToolGroupsController {
  constructor(private readonly groups: McpToolGroupsService) {}

  @Get()
  @Permission('MCPGateway', 'View')
  @ApiOperation({
    operationId: 'listMcpToolGroups',
    summary: 'List MCP tool groups with their tools',
    description: 'Sorted by name. `mcp_client_id` keeps the groups holding a tool of that client.',
  })
  @ApiOkResponse({ type: McpToolGroupListDto })
  async list(@Query() query: McpToolGroupQueryDto): Promise<McpToolGroupListDto> {
    return this.groups.list(query);
  }

  @Post()
  @HttpCode(201)
  @Permission('MCPGateway', 'Create')
  @ApiOperation({
    operationId: 'createMcpToolGroup',
    summary: 'Create an MCP tool group',
    description:
      'Each tool names an existing MCP client (else a 400 naming `tools[i].mcp_client_id`) and a tool by its own name; a tool the client does not list now is accepted.',
  })
  @ApiResponse({ status: 201, type: McpToolGroupResponseDto })
  @ApiErrorResponses(409)
  async create(@Body() body: CreateMcpToolGroupDto): Promise<McpToolGroupResponseDto> {
    return { tool_group: await this.groups.create(body) };
  }

  @Get(':id')
  @Permission('MCPGateway', 'View')
  @ApiOperation({ operationId: 'getMcpToolGroup', summary: 'Get an MCP tool group' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: McpToolGroupResponseDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<McpToolGroupResponseDto> {
    return { tool_group: await this.groups.get(id) };
  }

  @Put(':id')
  @Permission('MCPGateway', 'Update')
  @ApiOperation({
    operationId: 'updateMcpToolGroup',
    summary: 'Update an MCP tool group (the fields sent replace the stored ones)',
    description:
      'A change of `tools` rewrites, in the same transaction, the MCP grants of every profile-managed virtual key whose access profile copy references the group.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: McpToolGroupResponseDto })
  @ApiErrorResponses(404, 409)
  async update(@Param('id') id: string, @Body() body: UpdateMcpToolGroupDto): Promise<McpToolGroupResponseDto> {
    return { tool_group: await this.groups.update(id, body) };
  }

  @Delete(':id')
  @Permission('MCPGateway', 'Delete')
  @ApiOperation({
    operationId: 'deleteMcpToolGroup',
    summary: 'Delete an MCP tool group',
    description:
      'Refused with 409 `in_use` while an access profile template or a user’s copy references it (the message counts them).',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404, 409)
  async remove(@Param('id') id: string): Promise<MessageResponseDto> {
    await this.groups.remove(id);
    return { message: 'MCP tool group deleted' };
  }
}
