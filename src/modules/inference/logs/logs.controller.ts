import { Body, Controller, Delete, Get, HttpCode, Param, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import {
  hasLogsBeside,
  searchWindowHeader,
  sendSearchPageHeaders,
  totalCountCappedHeader,
} from '../../../core/http/paging.dto.js';
import { isUuid } from '../../../core/persistence/log-sql.js';
import { checkBounds, commaList, enumList, searchTerm, timeRange } from '../../../core/http/query-values.js';
import { REQUEST_TYPES } from '../routing/inference-call.js';
import { LogGroupsDto, LogGroupsQueryDto } from './dto/log-groups.dto.js';
import { LogFiltersQueryDto, LogsListQueryDto } from './dto/logs-query.dto.js';
import {
  DeleteLogsDto,
  DeleteLogsResultDto,
  DroppedLogsDto,
  FilterDataDto,
  HistogramDto,
  LiveLogEventDto,
  LogStatsDto,
  LogsListDto,
  RequestLogDetailDto,
  RequestLogDto,
} from './dto/request-log.dto.js';
import { LOG_STATUSES } from './entities/request-log.entity.js';
import { RequestLogQuery, type HistogramKind, type LogFilters } from './request-log.query.js';
import { RequestLogStore } from './request-log.store.js';

const OBJECTS = Object.values(REQUEST_TYPES);

/** A comma list of UUIDs (the column is a uuid): 400 naming `param` for any other item. */
function uuidList(param: string, value: string | undefined): string[] | undefined {
  const items = commaList(value);
  const bad = items?.find((item) => !isUuid(item));
  if (bad !== undefined) {
    throw GatewayException.validation(
      param,
      `${param}: ${JSON.stringify(bad.slice(0, 64))} is not a request id (UUID)`,
    );
  }
  return items;
}

/** The query's filters, checked: any bad value is a 400 naming its parameter. */
function filtersOf(q: LogFiltersQueryDto): LogFilters {
  const { start, end } = timeRange(q);
  checkBounds('min_latency', q.min_latency, 'max_latency', q.max_latency);
  checkBounds('min_tokens', q.min_tokens, 'max_tokens', q.max_tokens);
  checkBounds('min_cost', q.min_cost, 'max_cost', q.max_cost);
  const search = searchTerm(q.content_search);
  if (q.missing_cost_only && (q.min_cost !== undefined || q.max_cost !== undefined)) {
    throw GatewayException.validation('missing_cost_only', 'missing_cost_only excludes min_cost and max_cost');
  }
  return {
    providers: commaList(q.providers),
    models: commaList(q.models),
    status: enumList('status', q.status, LOG_STATUSES),
    objects: enumList('objects', q.objects, OBJECTS),
    selected_key_ids: commaList(q.selected_key_ids),
    virtual_key_ids: commaList(q.virtual_key_ids),
    team_ids: commaList(q.team_ids),
    customer_ids: commaList(q.customer_ids),
    routing_rule_ids: commaList(q.routing_rule_ids),
    parent_request_ids: uuidList('parent_request_ids', q.parent_request_ids),
    start_time: start,
    end_time: end,
    min_latency: q.min_latency,
    max_latency: q.max_latency,
    min_tokens: q.min_tokens,
    max_tokens: q.max_tokens,
    min_cost: q.min_cost,
    max_cost: q.max_cost,
    missing_cost_only: q.missing_cost_only,
    cache_hit: q.cache_hit,
    content_search: search,
  };
}

/** Request logs of the inference plane: list with filters and sorts, one row, stats, histograms, deletion. */
@ApiTags('Logs')
@ApiExtraModels(LiveLogEventDto)
@Controller('api/logs')
export class LogsController {
  constructor(
    private readonly logs: RequestLogQuery,
    private readonly store: RequestLogStore,
  ) {}

  @Get()
  @Permission('Logs', 'View')
  @ApiOperation({ operationId: 'listLogs', summary: 'Request logs with filters, sort and paging, and their stats' })
  @ApiOkResponse({
    type: LogsListDto,
    headers: {
      ...totalCountCappedHeader(
        ', and `stats` cover the counted matches only',
        'matches are counted up to `count_limit` past the end of the page; with `content_search`, by default 1,000',
      ),
      ...searchWindowHeader(),
    },
  })
  @ApiErrorResponses(400)
  async list(@Query() query: LogsListQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<LogsListDto> {
    const filters = filtersOf(query);
    const page = {
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
      sort_by: query.sort_by ?? 'timestamp',
      order: query.order ?? 'desc',
    };
    const listed = await this.logs.list(filters, page, query.count_limit);
    const { rows, total, stats } = listed;
    sendSearchPageHeaders(reply, listed);
    return {
      logs: rows.map((r) => RequestLogDto.from(r)),
      pagination: { total_count: total, ...page },
      stats,
      has_logs: await hasLogsBeside({ rows, total }, () => this.logs.hasLogs()),
    };
  }

  @Get('stats')
  @Permission('Logs', 'View')
  @ApiOperation({
    operationId: 'getLogStats',
    summary: 'Totals over the filters: requests, success rate, average latency, tokens, cost',
  })
  @ApiOkResponse({ type: LogStatsDto })
  @ApiErrorResponses(400)
  stats(@Query() query: LogFiltersQueryDto): Promise<LogStatsDto> {
    return this.logs.stats(filtersOf(query));
  }

  @Get('groups')
  @Permission('Logs', 'View')
  @ApiOperation({
    operationId: 'getLogGroups',
    summary:
      'Requests, errors, tokens, cost and latency percentiles per provider, model or virtual key over the filters, ' +
      'the largest groups first, with the same measures over every match',
  })
  @ApiOkResponse({ type: LogGroupsDto })
  @ApiErrorResponses(400)
  async groups(@Query() query: LogGroupsQueryDto): Promise<LogGroupsDto> {
    const options = {
      group_by: query.group_by ?? 'model',
      sort_by: query.sort_by ?? 'requests',
      limit: query.limit ?? 10,
    };
    const result = await this.logs.groups(filtersOf(query), options);
    return { group_by: options.group_by, sort_by: options.sort_by, ...result };
  }

  @Get('histogram')
  @Permission('Logs', 'View')
  @ApiOperation({ operationId: 'getLogHistogram', summary: 'Requests by status over time buckets' })
  @ApiOkResponse({ type: HistogramDto })
  @ApiErrorResponses(400)
  histogram(@Query() query: LogFiltersQueryDto): Promise<HistogramDto> {
    return this.histogramOf('requests', query);
  }

  @Get('histogram/tokens')
  @Permission('Logs', 'View')
  @ApiOperation({ operationId: 'getLogTokenHistogram', summary: 'Prompt, completion and total tokens over time' })
  @ApiOkResponse({ type: HistogramDto })
  @ApiErrorResponses(400)
  tokens(@Query() query: LogFiltersQueryDto): Promise<HistogramDto> {
    return this.histogramOf('tokens', query);
  }

  @Get('histogram/cost')
  @Permission('Logs', 'View')
  @ApiOperation({ operationId: 'getLogCostHistogram', summary: 'Cost (USD) over time' })
  @ApiOkResponse({ type: HistogramDto })
  @ApiErrorResponses(400)
  cost(@Query() query: LogFiltersQueryDto): Promise<HistogramDto> {
    return this.histogramOf('cost', query);
  }

  @Get('histogram/latency')
  @Permission('Logs', 'View')
  @ApiOperation({ operationId: 'getLogLatencyHistogram', summary: 'Latency average and percentiles over time' })
  @ApiOkResponse({ type: HistogramDto })
  @ApiErrorResponses(400)
  latency(@Query() query: LogFiltersQueryDto): Promise<HistogramDto> {
    return this.histogramOf('latency', query);
  }

  @Get('filterdata')
  @Permission('Logs', 'View')
  @ApiOperation({
    operationId: 'getLogFilterData',
    summary: "Distinct providers, models, request types, keys and virtual keys (the dashboard's pickers)",
  })
  @ApiOkResponse({ type: FilterDataDto })
  filterData(): Promise<FilterDataDto> {
    return this.logs.filterData();
  }

  @Get('dropped')
  @Permission('Logs', 'View')
  @ApiOperation({
    operationId: 'getDroppedLogs',
    summary: 'Log rows this process gave up (full buffer, failed writes) and rows waiting, since start',
  })
  @ApiOkResponse({ type: DroppedLogsDto })
  dropped(): DroppedLogsDto {
    const stats = this.store.stats();
    return {
      dropped: stats.dropped.buffer_full + stats.dropped.write_failed,
      buffer_full: stats.dropped.buffer_full,
      write_failed: stats.dropped.write_failed,
      written: stats.written,
      pending: stats.pending,
    };
  }

  @Get(':id')
  @Permission('Logs', 'View')
  @ApiOperation({ operationId: 'getLog', summary: 'One request log with its input and output' })
  @ApiOkResponse({ type: RequestLogDetailDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<RequestLogDetailDto> {
    const { row, content, input } = await this.logs.get(id);
    return RequestLogDetailDto.withContent(row, content, input);
  }

  @Delete()
  @HttpCode(200)
  @Permission('Logs', 'Delete')
  @ApiOperation({ operationId: 'deleteLogs', summary: 'Delete request logs by id' })
  @ApiOkResponse({ type: DeleteLogsResultDto })
  @ApiErrorResponses(400)
  async delete(@Body() body: DeleteLogsDto): Promise<DeleteLogsResultDto> {
    const deleted = await this.logs.delete(body.ids);
    return { message: `${deleted} log${deleted === 1 ? '' : 's'} deleted`, deleted };
  }

  private async histogramOf(kind: HistogramKind, query: LogFiltersQueryDto): Promise<HistogramDto> {
    const result = await this.logs.histogram(kind, filtersOf(query));
    return {
      start_time: result.start.toISOString(),
      end_time: result.end.toISOString(),
      bucket_size_seconds: result.bucketSeconds,
      buckets: result.buckets as unknown as HistogramDto['buckets'],
    };
  }
}
