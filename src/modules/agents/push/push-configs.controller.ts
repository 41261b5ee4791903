import { Controller, Delete, Get, HttpCode, Inject, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Logger } from 'pino';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { OutboundHttpService } from '../../../core/outbound/outbound-http.service.js';
import { AgentCardService } from '../a2a/agent-card.service.js';
import { AgentUpstreamAuth } from '../a2a/agent-upstream-auth.js';
import { AgentsService } from '../agents.service.js';
import { A2aRequestType } from '../data-plane/a2a-error-fields.interceptor.js';
import { PushConfigListDto, PushConfigQueryDto } from './dto/push-config.dto.js';
import { PushConfigsService } from './push-configs.service.js';

@ApiTags('Agents')
@Controller('api/agents/push-configs')
export class PushConfigsController {
  constructor(
    private readonly configs: PushConfigsService,
    private readonly agents: AgentsService,
    private readonly cards: AgentCardService,
    private readonly auth: AgentUpstreamAuth,
    private readonly outbound: OutboundHttpService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get()
  @Permission('AgentGateway', 'View')
  @A2aRequestType('ListPushConfigs')
  @ApiOperation({ operationId: 'listAgentPushConfigs', summary: 'List relayed push notification configs' })
  @ApiOkResponse({ type: PushConfigListDto })
  async list(@Query() query: PushConfigQueryDto): Promise<PushConfigListDto> {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const { rows, total } = await this.configs.listManagement({
      agent_name: query.agent_name,
      task_id: query.task_id,
      limit,
      offset,
    });
    return {
      push_configs: rows.map((r) => this.configs.managementView(r)),
      count: rows.length,
      pagination: { total_count: total, limit, offset, sort_by: 'created_at', order: 'desc' },
    };
  }

  @Delete(':name/:task_id/:config_id')
  @HttpCode(204)
  @Permission('AgentGateway', 'Delete')
  @A2aRequestType('DeletePushConfig')
  @ApiOperation({
    operationId: 'deleteAgentPushConfig',
    summary: 'Delete a relayed push config (upstream, best effort, and in the gateway)',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrorResponses(404)
  async remove(
    @Param('name') name: string,
    @Param('task_id') taskId: string,
    @Param('config_id') configId: string,
  ): Promise<void> {
    const row = await this.configs.find(name, taskId, configId);
    if (!row) {
      throw GatewayException.notFound(
        'push_config',
        `Push config ${configId} of task ${taskId} (agent ${name}) not found`,
      );
    }
    await this.configs.remove(row.id);
    await this.deleteUpstream(name, taskId, configId).catch((err: unknown) => {
      this.logger.warn({ err, agent: name }, 'upstream push config delete failed (removed in the gateway)');
    });
  }

  /** The upstream still holds the gateway's callback for this config: remove it there too. */
  private async deleteUpstream(name: string, taskId: string, configId: string): Promise<void> {
    const agent = await this.agents.get(name);
    if (!agent.enabled) return;
    const upstream = await this.cards.getUpstreamCard(agent);
    const [auth, tls] = await Promise.all([this.auth.headersFor(agent, 'runtime'), this.auth.tlsFor(agent, 'runtime')]);
    const headers: Record<string, string> = { ...auth, 'a2a-version': '1.0' };
    if (upstream.jsonrpc) {
      const params = { taskId, id: configId, ...(upstream.jsonrpc.tenant ? { tenant: upstream.jsonrpc.tenant } : {}) };
      const res = await this.outbound.request(upstream.jsonrpc.url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'DeleteTaskPushNotificationConfig', params }),
        tls,
        timeoutMs: 15_000,
      });
      await res.body.dump();
    } else if (upstream.rest) {
      const tenant = upstream.rest.tenant ? `/${encodeURIComponent(upstream.rest.tenant)}` : '';
      const url = `${upstream.rest.url.replace(/\/+$/, '')}${tenant}/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs/${encodeURIComponent(configId)}`;
      const res = await this.outbound.request(url, { method: 'DELETE', headers, tls, timeoutMs: 15_000 });
      await res.body.dump();
    }
  }
}
