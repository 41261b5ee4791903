import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { AgentErrorFields } from '../data-plane/a2a-errors.js';
import { HISTORY_OPERATIONS } from '../data-plane/a2a-wire.js';
import { AgentHistoryService } from './agent-history.service.js';
import { AgentHistoryListDto, AgentOperationDto } from './dto/agent-operation.dto.js';
import { HistoryQueryDto } from './dto/history-query.dto.js';
import { OPERATION_STATUSES, type OperationStatus } from './entities/agent-operation.entity.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.length ? items : undefined;
}

function time(param: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const date = new Date(value);
  if (!RFC3339.test(value) || Number.isNaN(date.getTime())) {
    throw GatewayException.validation(param, `${param} must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z`);
  }
  return date;
}

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
    const statuses = list(query.statuses);
    for (const s of statuses ?? []) {
      if (!(OPERATION_STATUSES as readonly string[]).includes(s)) {
        throw GatewayException.validation('statuses', `statuses must be a comma-separated list of success, error`);
      }
    }
    const operations = list(query.operations);
    const unknown = operations?.find((op) => !(HISTORY_OPERATIONS as readonly string[]).includes(op));
    if (unknown !== undefined) {
      throw GatewayException.validation(
        'operations',
        `operations: unknown operation ${JSON.stringify(unknown)}; use ${HISTORY_OPERATIONS.join(', ')}`,
      );
    }
    const start = time('start_time', query.start_time);
    const end = time('end_time', query.end_time);
    if (start && end && start > end) throw GatewayException.validation('start_time', 'start_time is after end_time');
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const { rows, total } = await this.history.list({
      agent_names: list(query.agent_names),
      operations,
      statuses: statuses as OperationStatus[] | undefined,
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
