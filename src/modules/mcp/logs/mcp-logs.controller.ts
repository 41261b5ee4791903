import { Body, Controller, Delete, Get, HttpCode, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import {
  hasLogsBeside,
  searchWindowHeader,
  sendSearchPageHeaders,
  totalCountCappedHeader,
} from '../../../core/http/paging.dto.js';
import { checkBounds, commaList, enumList, searchTerm, timeRange } from '../../../core/http/query-values.js';
import { McpLogFiltersQueryDto, McpLogsListQueryDto } from './dto/mcp-logs-query.dto.js';
import {
  DeleteMcpToolLogsDto,
  DeleteMcpToolLogsResultDto,
  McpToolLogDto,
  McpToolLogFilterDataDto,
  McpToolLogHistogramDto,
  McpToolLogListDto,
  McpToolLogStatsDto,
} from './dto/mcp-tool-log.dto.js';
import { MCP_LOG_STATUSES } from './entities/mcp-tool-log.entity.js';
import { McpToolLogQuery, type McpLogFilters } from './mcp-tool-log.query.js';

/** Marks a list whose `total_count` is a lower bound (a `content_search` with more matches than were counted). */

/** The query's filters, checked: any bad value is a 400 naming its parameter. */
function filtersOf(q: McpLogFiltersQueryDto): McpLogFilters {
  const { start, end } = timeRange(q);
  checkBounds('min_latency', q.min_latency, 'max_latency', q.max_latency);
  return {
    tool_names: commaList(q.tool_names),
    server_labels: commaList(q.server_labels),
    status: enumList('status', q.status, MCP_LOG_STATUSES),
    virtual_key_ids: commaList(q.virtual_key_ids),
    llm_request_ids: commaList(q.llm_request_ids),
    start_time: start,
    end_time: end,
    min_latency: q.min_latency,
    max_latency: q.max_latency,
    content_search: searchTerm(q.content_search),
  };
}

/** MCP tool logs: list with filters, sorts and paging, one row, stats, histogram, filter values, deletion. */
@ApiTags('MCP logs')
@Controller('api/mcp-logs')
export class McpLogsController {
  constructor(private readonly logs: McpToolLogQuery) {}

  @Get()
  @Permission('MCPLogs', 'View')
  @ApiOperation({ operationId: 'listMcpLogs', summary: 'MCP tool logs with filters, sort and paging' })
  @ApiOkResponse({
    type: McpToolLogListDto,
    headers: { ...totalCountCappedHeader(), ...searchWindowHeader() },
  })
  @ApiErrorResponses(400)
  async list(
    @Query() query: McpLogsListQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<McpToolLogListDto> {
    const filters = filtersOf(query);
    const page = {
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
      sort_by: query.sort_by ?? 'timestamp',
      order: query.order ?? 'desc',
    };
    const listed = await this.logs.list(filters, page);
    const { rows, total } = listed;
    sendSearchPageHeaders(reply, listed);
    return {
      logs: rows.map((r) => McpToolLogDto.from(r)),
      pagination: { total_count: total, ...page },
      has_logs: await hasLogsBeside({ rows, total }, () => this.logs.hasLogs()),
    };
  }

  @Get('stats')
  @Permission('MCPLogs', 'View')
  @ApiOperation({
    operationId: 'getMcpLogStats',
    summary: 'Totals over the filters: executions, success rate, average latency, cost',
  })
  @ApiOkResponse({ type: McpToolLogStatsDto })
  @ApiErrorResponses(400)
  stats(@Query() query: McpLogFiltersQueryDto): Promise<McpToolLogStatsDto> {
    return this.logs.stats(filtersOf(query));
  }

  @Get('histogram')
  @Permission('MCPLogs', 'View')
  @ApiOperation({ operationId: 'getMcpLogHistogram', summary: 'Tool calls by status over time buckets' })
  @ApiOkResponse({ type: McpToolLogHistogramDto })
  @ApiErrorResponses(400)
  async histogram(@Query() query: McpLogFiltersQueryDto): Promise<McpToolLogHistogramDto> {
    const result = await this.logs.histogram(filtersOf(query));
    return {
      start_time: result.start.toISOString(),
      end_time: result.end.toISOString(),
      bucket_size_seconds: result.bucketSeconds,
      buckets: result.buckets,
    };
  }

  @Get('filterdata')
  @Permission('MCPLogs', 'View')
  @ApiOperation({
    operationId: 'getMcpLogFilterData',
    summary: 'Distinct tool names, server labels and virtual keys of the tool logs',
  })
  @ApiOkResponse({ type: McpToolLogFilterDataDto })
  filterData(): Promise<McpToolLogFilterDataDto> {
    return this.logs.filterData();
  }

  @Get(':id')
  @Permission('MCPLogs', 'View')
  @ApiOperation({ operationId: 'getMcpLog', summary: 'One MCP tool log' })
  @ApiOkResponse({ type: McpToolLogDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<McpToolLogDto> {
    return McpToolLogDto.from(await this.logs.get(id));
  }

  @Delete()
  @HttpCode(200)
  @Permission('MCPLogs', 'Delete')
  @ApiOperation({ operationId: 'deleteMcpLogs', summary: 'Delete MCP tool logs by id' })
  @ApiOkResponse({ type: DeleteMcpToolLogsResultDto })
  @ApiErrorResponses(400)
  async delete(@Body() body: DeleteMcpToolLogsDto): Promise<DeleteMcpToolLogsResultDto> {
    const deleted = await this.logs.delete(body.ids);
    return { message: `${deleted} log${deleted === 1 ? '' : 's'} deleted`, deleted };
  }
}
