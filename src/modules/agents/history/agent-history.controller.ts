import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { commaList as list, enumList, timeQuery as time } from '../../../core/http/query-values.js';
import { AgentErrorFields } from '../data-plane/a2a-errors.js';
import { HISTORY_OPERATIONS } from '../data-plane/a2a-wire.js';
import { AgentHistoryService } from './agent-history.service.js';
import { AgentHistoryListDto, AgentOperationDto } from './dto/agent-operation.dto.js';
import { HistoryQueryDto } from './dto/history-query.dto.js';
import { OPERATION_STATUSES } from './entities/agent-operation.entity.js';

@ApiTags('Agents')
@Controller('api/agents/history')
@AgentErrorFields()
export class AgentHistoryController {
  constructor(private readonly history: AgentHistoryService) {}

  @Get()
  @Permission('AgentGateway', 'View')
  @ApiOperation({ operationId: 'listAgentHistory', summary: 'List Agent Gateway operations (newest first)' })
  @ApiOkResponse({ type: AgentHistoryListDto })
  async list(@Query() query: HistoryQueryDto): Promise<AgentHistoryListDto> {
    const statuses = enumList('statuses', query.statuses, OPERATION_STATUSES);
    const operations = enumList('operations', query.operations, HISTORY_OPERATIONS);
    const start = time('start_time', query.start_time);
    const end = time('end_time', query.end_time);
    if (start && end && start > end) throw GatewayException.validation('start_time', 'start_time is after end_time');
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const { rows, total } = await this.history.list({
      agent_names: list(query.agent_names),
      operations,
      statuses,
      virtual_key_ids: list(query.virtual_key_ids),
      task_id: query.task_id || undefined,
      start_time: start,
      end_time: end,
      limit,
      offset,
    });
    return {
      history: rows.map((r) => AgentOperationDto.from(r)),
      count: rows.length,
      pagination: { total_count: total, limit, offset, sort_by: 'created_at', order: 'desc' },
    };
  }

  @Get(':id')
  @Permission('AgentGateway', 'View')
  @ApiOperation({ operationId: 'getAgentOperation', summary: 'Get one Agent Gateway operation' })
  @ApiOkResponse({ type: AgentOperationDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<AgentOperationDto> {
    return AgentOperationDto.from(await this.history.get(id));
  }
}
