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
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { McpCallerResolver } from '../tools/mcp-caller.js';
import { GatewayMcpServer } from './gateway-mcp-server.js';
import { McpStreams } from './mcp-streams.js';

const JSONRPC_BODY = {
  schema: {
    type: 'object',
    description:
      'A JSON-RPC 2.0 MCP message (initialize, ping, tools/*, prompts/*, resources/*, completion/complete, ' +
      'logging/setLevel, notifications, answers to the server’s requests), or a batch of them',
    additionalProperties: true,
  },
};
const JSONRPC_ANSWER = {
  description:
    'The JSON-RPC response: application/json, or text/event-stream for a relayed request (tools/call, prompts/get, ' +
    'resources/read, completion/complete), whose stream also carries the upstream server’s progress, log and ' +
    'requests meanwhile. `initialize` answers with an Mcp-Session-Id header. Notifications and answers alone get ' +
    '202 with no body',
};
const SESSION_HEADER = {
  name: 'mcp-session-id',
  required: false,
  description: 'The session from initialize; unknown, ended, or another key’s or path’s: 404',
};
const SESSION_ENDED = { status: 200, description: 'The session is ended: its id gets 404 from now on' };
const STREAM_ACCEPT = {
  name: 'accept',
  required: true,
  description: 'Must include text/event-stream (else 400 with param accept)',
};
const STREAM_ANSWER = {
  description:
    'The standalone SSE stream (text/event-stream): list_changed notifications (tools, prompts, resources) when ' +
    'what this caller sees changes, and for a session its resource updates and the servers’ log lines tied to no ' +
    'request; a keep-alive comment every 15 s',
};

/**
 * The gateway's own MCP server (Streamable HTTP; sessions without shared state; GET opens the standalone stream,
 * DELETE ends a session): the tools, prompts and resources of the MCP clients the calling virtual key may use, at
 * `/mcp`, or one client's at `/mcp/{client}`. Same credentials as `/v1`.
 */
@ApiTags('MCP')
@Controller('mcp')
@VirtualKeyAuth({ optional: true })
export class GatewayMcpServerController {
  constructor(
    private readonly callers: McpCallerResolver,
    private readonly server: GatewayMcpServer,
    private readonly streams: McpStreams,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'mcpServer',
    summary:
      'MCP Streamable HTTP endpoint: the tools, prompts and resources of every MCP client the caller may use, ' +
      'named <client>-<name>',
  })
  @ApiHeader(SESSION_HEADER)
  @ApiBody(JSONRPC_BODY)
  @ApiProduces('application/json')
  @ApiOkResponse(JSONRPC_ANSWER)
  @ApiErrorResponses(400, 401, 403, 404)
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const caller = this.callers.of(request);
    await this.server.handle(request, reply, { caller });
  }

  @Post(':client')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'mcpServerForClient',
    summary:
      'MCP Streamable HTTP endpoint narrowed to one MCP client: its tools, prompts and resources under their own names',
  })
  @ApiParam({ name: 'client', description: 'The MCP client name' })
  @ApiHeader(SESSION_HEADER)
  @ApiBody(JSONRPC_BODY)
  @ApiProduces('application/json')
  @ApiOkResponse(JSONRPC_ANSWER)
  @ApiErrorResponses(400, 401, 403, 404)
  async postForClient(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('client') client: string,
  ): Promise<void> {
    const caller = this.callers.of(request);
    this.server.assertClient({ caller, client });
    await this.server.handle(request, reply, { caller, client });
  }

  @Get()
  @ApiOperation({
    operationId: 'mcpServerStream',
    summary: 'MCP standalone SSE stream (Accept: text/event-stream): list changes, resource updates, log lines',
  })
  @ApiHeader(STREAM_ACCEPT)
  @ApiHeader(SESSION_HEADER)
  @ApiProduces('text/event-stream')
  @ApiOkResponse(STREAM_ANSWER)
  @ApiErrorResponses(400, 401, 403, 404, 503)
  async stream(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const caller = this.callers.of(request);
    await this.streams.open(request, reply, { caller });
  }

  @Get(':client')
  @ApiOperation({
    operationId: 'mcpServerForClientStream',
    summary: 'MCP standalone SSE stream narrowed to one MCP client',
  })
  @ApiParam({ name: 'client', description: 'The MCP client name' })
  @ApiHeader(STREAM_ACCEPT)
  @ApiHeader(SESSION_HEADER)
  @ApiProduces('text/event-stream')
  @ApiOkResponse(STREAM_ANSWER)
  @ApiErrorResponses(400, 401, 403, 404, 503)
  async streamForClient(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('client') client: string,
  ): Promise<void> {
    const caller = this.callers.of(request);
    this.server.assertClient({ caller, client });
    await this.streams.open(request, reply, { caller, client });
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ operationId: 'mcpServerEndSession', summary: 'Ends an MCP session (Mcp-Session-Id)' })
  @ApiHeader({ ...SESSION_HEADER, required: true })
  @ApiResponse(SESSION_ENDED)
  @ApiErrorResponses(400, 401, 403, 404)
  async endSession(@Req() request: FastifyRequest): Promise<void> {
    await this.end(request, undefined);
  }

  @Delete(':client')
  @HttpCode(200)
  @ApiOperation({ operationId: 'mcpServerForClientEndSession', summary: 'Ends an MCP session of /mcp/{client}' })
  @ApiParam({ name: 'client', description: 'The MCP client name' })
  @ApiHeader({ ...SESSION_HEADER, required: true })
  @ApiResponse(SESSION_ENDED)
  @ApiErrorResponses(400, 401, 403, 404)
  async endSessionForClient(@Req() request: FastifyRequest, @Param('client') client: string): Promise<void> {
    await this.end(request, client);
  }

  /** 400 without `Mcp-Session-Id`; 404 for one that is not this caller's on this path. */
  private async end(request: FastifyRequest, client: string | undefined): Promise<void> {
    const header = request.headers['mcp-session-id'];
    if (header === undefined) throw GatewayException.validation('mcp-session-id', 'mcp-session-id is required');
    const caller = this.callers.of(request);
    const session = this.server.sessions.resolve(header, caller, client);
    if (session) await this.server.sessions.end(session);
  }
}
