import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayErrorDto } from '../../../core/errors/gateway-error.dto.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { GatewayMcpServer } from './gateway-mcp-server.js';
import { McpCallerResolver } from './mcp-caller.js';
import { ToolListStreams } from './tool-list-streams.js';

const JSONRPC_BODY = {
  schema: {
    type: 'object',
    description:
      'A JSON-RPC 2.0 MCP message (initialize, ping, tools/list, tools/call, notifications), or a batch of them',
    additionalProperties: true,
  },
};
const JSONRPC_ANSWER = {
  description: 'The JSON-RPC response (application/json); a notification or response alone gets 202 with no body',
};
const STATELESS = {
  status: 405,
  description: 'Stateless server: no session to end (Allow: GET, POST)',
  type: GatewayErrorDto,
};
const STREAM_ACCEPT = {
  name: 'accept',
  required: true,
  description: 'Must include text/event-stream (else 400 with param accept)',
};
const STREAM_ANSWER = {
  description:
    'The standalone SSE stream (text/event-stream, no session): carries notifications/tools/list_changed when the ' +
    'tools this caller sees change; a keep-alive comment every 15 s',
};

function notAllowed(request: FastifyRequest): never {
  throw new GatewayException(
    405,
    'method_not_allowed',
    `${request.method} is not supported: this MCP server is stateless (no session to end)`,
    {
      headers: { allow: 'GET, POST' },
    },
  );
}

/**
 * The gateway's own MCP server (Streamable HTTP, stateless; GET opens the standalone stream of list_changed
 * notifications): the tools of the MCP clients the calling virtual key may
 * use, at `/mcp`, or one client's at `/mcp/{client}`. Same credentials as `/v1`.
 */
@ApiTags('MCP')
@Controller('mcp')
@VirtualKeyAuth({ optional: true })
export class GatewayMcpServerController {
  constructor(
    private readonly callers: McpCallerResolver,
    private readonly server: GatewayMcpServer,
    private readonly streams: ToolListStreams,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'mcpServer',
    summary: 'MCP Streamable HTTP endpoint: the tools of every MCP client the caller may use, named <client>-<tool>',
  })
  @ApiBody(JSONRPC_BODY)
  @ApiProduces('application/json')
  @ApiOkResponse(JSONRPC_ANSWER)
  @ApiErrorResponses(400, 401)
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const caller = this.callers.of(request);
    await this.server.handle(request, reply, { caller });
  }

  @Post(':client')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'mcpServerForClient',
    summary: 'MCP Streamable HTTP endpoint narrowed to one MCP client: its tools under their own names',
  })
  @ApiParam({ name: 'client', description: 'The MCP client name' })
  @ApiBody(JSONRPC_BODY)
  @ApiProduces('application/json')
  @ApiOkResponse(JSONRPC_ANSWER)
  @ApiErrorResponses(400, 401, 403)
  async postForClient(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('client') client: string,
  ): Promise<void> {
    const caller = this.callers.of(request);
    await this.server.assertClient(caller, client);
    await this.server.handle(request, reply, { caller, client });
  }

  @Get()
  @ApiOperation({
    operationId: 'mcpServerStream',
    summary: 'MCP standalone SSE stream (Accept: text/event-stream): tool list change notifications',
  })
  @ApiHeader(STREAM_ACCEPT)
  @ApiProduces('text/event-stream')
  @ApiOkResponse(STREAM_ANSWER)
  @ApiErrorResponses(400, 401, 503)
  async stream(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const caller = this.callers.of(request);
    await this.streams.open(request, reply, { caller });
  }

  @Get(':client')
  @ApiOperation({
    operationId: 'mcpServerForClientStream',
    summary: "MCP standalone SSE stream narrowed to one MCP client: its tool list's change notifications",
  })
  @ApiParam({ name: 'client', description: 'The MCP client name' })
  @ApiHeader(STREAM_ACCEPT)
  @ApiProduces('text/event-stream')
  @ApiOkResponse(STREAM_ANSWER)
  @ApiErrorResponses(400, 401, 403, 503)
  async streamForClient(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('client') client: string,
  ): Promise<void> {
    const caller = this.callers.of(request);
    await this.server.assertClient(caller, client);
    await this.streams.open(request, reply, { caller, client });
  }

  @Delete()
  @ApiOperation({ operationId: 'mcpServerEndSession', summary: 'Not supported (stateless server, no session): 405' })
  @ApiResponse(STATELESS)
  endSession(@Req() request: FastifyRequest): never {
    return notAllowed(request);
  }

  @Delete(':client')
  @ApiOperation({
    operationId: 'mcpServerForClientEndSession',
    summary: 'Not supported (stateless server, no session): 405',
  })
  @ApiParam({ name: 'client', description: 'The MCP client name' })
  @ApiResponse(STATELESS)
  endSessionForClient(@Req() request: FastifyRequest): never {
    return notAllowed(request);
  }
}
