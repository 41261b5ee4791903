import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { AgentHistoryService } from '../history/agent-history.service.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { AgentErrorFields, CardErrorFields, JsonRpcErrorFields, restPathOf, RestErrorFields } from './a2a-errors.js';
import { AgentAccessService } from './agent-access.service.js';
import { etagMatches, servedCardCaching } from './card-rewriter.js';
import { JsonRpcProxyService } from './jsonrpc-proxy.service.js';
import { RestProxyService } from './rest-proxy.service.js';

/**
 * The A2A v1 data plane per registered agent: the rewritten Agent Card, JSON-RPC and HTTP+JSON. Callers present a
 * virtual key; the agent must be enabled and the key granted (or the agent `allow_by_default`).
 */
@ApiTags('Agents data plane')
@Controller('agents/a2a/:name')
@AgentErrorFields()
export class AgentsDataPlaneController {
  constructor(
    private readonly access: AgentAccessService,
    private readonly history: AgentHistoryService,
    private readonly jsonRpc: JsonRpcProxyService,
    private readonly rest: RestProxyService,
  ) {}

  @Get('.well-known/agent-card.json')
  @VirtualKeyAuth()
  @CardErrorFields()
  @ApiOperation({
    operationId: 'getAgentGatewayCard',
    summary: "The agent's card as served by the gateway (interfaces point at the gateway, signatures dropped)",
  })
  @ApiOkResponse({ description: 'A2A v1 Agent Card (ProtoJSON)', schema: { type: 'object' } })
  @ApiErrorResponses(404, 502, 504)
  async card(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('name') name: string,
  ): Promise<string | undefined> {
    const started = performance.now();
    const call = await this.access.authorize(request, name, 'GetAgentCard');
    try {
      const { card, upstream } = await this.access.servedCardWithUpstream(request, call.agent);
      const body = JSON.stringify(card);
      const caching = servedCardCaching(body, upstream.cache_control);
      void reply.header('etag', caching.etag).header('cache-control', caching.cacheControl);
      this.history.record({
        agent_name: name,
        operation: 'GetAgentCard',
        virtual_key_id: call.virtualKey.id,
        status: 'success',
        status_code: 200,
        latency_ms: performance.now() - started,
        response_payload: card,
      });
      if (etagMatches(request.headers['if-none-match'], caching.etag)) {
        void reply.status(304);
        return undefined;
      }
      void reply.header('content-type', 'application/json; charset=utf-8');
      return body;
    } catch (err) {
      const view = toErrorResponse(err, request.errorFields);
      this.history.record({
        agent_name: name,
        operation: 'GetAgentCard',
        virtual_key_id: call.virtualKey.id,
        status: 'error',
        status_code: view.status,
        latency_ms: performance.now() - started,
        error: { ...view.body },
      });
      throw err;
    }
  }

  @Post('jsonrpc')
  @HttpCode(200)
  @VirtualKeyAuth()
  @JsonRpcErrorFields()
  @ApiOperation({
    operationId: 'agentJsonRpc',
    summary: 'A2A v1 JSON-RPC (every method; SendStreamingMessage and SubscribeToTask answer Server-Sent Events)',
  })
  @ApiBody({ schema: { type: 'object', required: ['jsonrpc', 'method'] } })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'JSON-RPC response, or an SSE stream of JSON-RPC responses' })
  @ApiErrorResponses(404, 502, 504)
  async jsonrpc(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('name') name: string,
  ): Promise<void> {
    await this.jsonRpc.handle(request, reply, name);
  }

  @Get('rest/*')
  @VirtualKeyAuth()
  @RestErrorFields()
  @ApiOperation({
    operationId: 'agentRestGet',
    summary: 'A2A v1 HTTP+JSON reads: tasks, tasks/{id}, tasks/{id}:subscribe (SSE), push configs, extendedAgentCard',
  })
  @ApiProduces('application/a2a+json', 'text/event-stream')
  @ApiOkResponse({ description: 'The upstream answer (SSE for tasks/{id}:subscribe)' })
  @ApiErrorResponses(404, 502, 504)
  async restGet(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('name') name: string,
  ): Promise<void> {
    await this.rest.handle(request, reply, name, restPathOf(request));
  }

  @Post('rest/*')
  @VirtualKeyAuth()
  @RestErrorFields()
  @ApiOperation({
    operationId: 'agentRestPost',
    summary: 'A2A v1 HTTP+JSON calls: message:send, message:stream (SSE), tasks/{id}:cancel, push config creation',
  })
  @ApiBody({ schema: { type: 'object' } })
  @ApiProduces('application/a2a+json', 'text/event-stream')
  @ApiOkResponse({ description: 'The upstream answer (SSE for message:stream and tasks/{id}:subscribe)' })
  @ApiErrorResponses(404, 502, 504)
  async restPost(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('name') name: string,
  ): Promise<void> {
    await this.rest.handle(request, reply, name, restPathOf(request));
  }

  @Delete('rest/*')
  @VirtualKeyAuth()
  @RestErrorFields()
  @ApiOperation({
    operationId: 'agentRestDelete',
    summary: 'A2A v1 HTTP+JSON push config deletion (tasks/{id}/pushNotificationConfigs/{configId})',
  })
  @ApiNoContentResponse({ description: 'Deleted (upstream and in the gateway)' })
  @ApiErrorResponses(404, 502, 504)
  async restDelete(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('name') name: string,
  ): Promise<void> {
    await this.rest.handle(request, reply, name, restPathOf(request));
  }
}
