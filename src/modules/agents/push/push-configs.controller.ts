import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { AgentCardService } from '../a2a/agent-card.service.js';
import { AgentUpstreamAuth } from '../a2a/agent-upstream-auth.js';
import { AgentsService } from '../agents.service.js';
import { AgentErrorFields } from '../data-plane/a2a-errors.js';
import { PushConfigListDto, PushConfigQueryDto } from './dto/push-config.dto.js';
import { PushConfigRemoval } from './push-config-removal.service.js';
import { PushConfigsService } from './push-configs.service.js';

@ApiTags('Agents')
@Controller('api/agents/push-configs')
@AgentErrorFields()
export class PushConfigsController {
  constructor(
    private readonly configs: PushConfigsService,
    private readonly agents: AgentsService,
    private readonly cards: AgentCardService,
    private readonly auth: AgentUpstreamAuth,
    private readonly removal: PushConfigRemoval,
  ) {}

  @Get()
  @Permission('AgentGateway', 'View')
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
    await this.removal.remove(row, async () => {
      const agent = await this.agents.get(name);
      if (!agent.enabled) return null;
      const [upstream, auth, tls] = await Promise.all([
        this.cards.getUpstreamCard(agent),
        this.auth.headersFor(agent, 'runtime'),
        this.auth.tlsFor(agent, 'runtime'),
      ]);
      return { upstream, headers: { ...auth, 'a2a-version': '1.0' }, tls };
    });
  }
}
