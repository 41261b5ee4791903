import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import {
  CreateMcpClientDto,
  McpClientListDto,
  McpClientQueryDto,
  McpClientResponseDto,
  McpRefreshToolsDto,
  UpdateMcpClientDto,
} from './dto/mcp-client.dto.js';
import { McpClientsService } from './mcp-clients.service.js';

const ID_PARAM = { name: 'id', description: 'MCP client ID (uuid).', format: 'uuid' };

@ApiTags('MCP clients')
@Controller('api/mcp')
export class McpClientsController {
  constructor(private readonly clients: McpClientsService) {}

  @Get('clients')
  @Permission('MCPGateway', 'View')
  @ApiOperation({
    operationId: 'listMcpClients',
    summary: 'List MCP clients with their state and tools',
    description: '`state` is the connection of the replica answering. Sorted by name.',
  })
  @ApiOkResponse({ type: McpClientListDto })
  async list(@Query() query: McpClientQueryDto): Promise<McpClientListDto> {
    return this.clients.list(query);
  }

  @Post('client')
  @HttpCode(201)
  @Permission('MCPGateway', 'Create')
  @ApiOperation({
    operationId: 'createMcpClient',
    summary: 'Register an MCP server',
    description:
      'Connects and lists the tools before answering; a failure is a 400 naming `connection_string` (http, sse) or `stdio_config` (stdio), and nothing is saved. A stdio client spawns a command on the gateway host: only holders of MCPGateway:Create (the local admin has every permission) may register one.',
  })
  @ApiResponse({ status: 201, type: McpClientResponseDto })
  @ApiErrorResponses(409)
  async create(@Body() body: CreateMcpClientDto): Promise<McpClientResponseDto> {
    return { client: this.clients.view(await this.clients.create(body)) };
  }

  @Get('client/:id')
  @Permission('MCPGateway', 'View')
  @ApiOperation({ operationId: 'getMcpClient', summary: 'Get an MCP client' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: McpClientResponseDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<McpClientResponseDto> {
    return { client: this.clients.view(await this.clients.get(id)) };
  }

  @Put('client/:id')
  @Permission('MCPGateway', 'Update')
  @ApiOperation({
    operationId: 'updateMcpClient',
    summary: 'Update an MCP client (the fields sent replace the stored ones)',
    description:
      '`connection_type` cannot change. A change of `connection_string`, `stdio_config`, `headers` or `disabled` connects again before saving (a failure is a 400 and nothing is saved). Secrets sent back as `<REDACTED>` keep their stored values.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: McpClientResponseDto })
  @ApiErrorResponses(404, 409)
  async update(@Param('id') id: string, @Body() body: UpdateMcpClientDto): Promise<McpClientResponseDto> {
    return { client: this.clients.view(await this.clients.update(id, body)) };
  }

  @Delete('client/:id')
  @Permission('MCPGateway', 'Delete')
  @ApiOperation({
    operationId: 'deleteMcpClient',
    summary: 'Delete an MCP client (disconnects it; a stdio child is killed)',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async remove(@Param('id') id: string): Promise<MessageResponseDto> {
    await this.clients.remove(id);
    return { message: 'MCP client deleted successfully' };
  }

  @Post('client/:id/reconnect')
  @HttpCode(200)
  @Permission('MCPGateway', 'Update')
  @ApiOperation({
    operationId: 'reconnectMcpClient',
    summary: 'Reconnect an MCP client now',
    description: 'The view shows the outcome (`state`, `last_error`); a disabled client is a 400.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: McpClientResponseDto })
  @ApiErrorResponses(404)
  async reconnect(@Param('id') id: string): Promise<McpClientResponseDto> {
    return { client: this.clients.view(await this.clients.reconnect(id)) };
  }

  @Post('client/:id/refresh-tools')
  @HttpCode(200)
  @Permission('MCPGateway', 'Update')
  @ApiOperation({
    operationId: 'refreshMcpClientTools',
    summary: "List an MCP client's tools again",
    description: 'A disabled client is a 400; a server that is not connected or fails to list is a 502.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: McpRefreshToolsDto })
  @ApiErrorResponses(404, 502)
  async refreshTools(@Param('id') id: string): Promise<McpRefreshToolsDto> {
    return { tool_count: await this.clients.refreshTools(id) };
  }
}
