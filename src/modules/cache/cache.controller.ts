import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../core/errors/api-errors.decorator.js';
import { CacheClearResponseDto, CacheStatsDto } from './dto/cache-stats.dto.js';
import { ResponseCacheService } from './response-cache.service.js';

@ApiTags('Cache')
@Controller('api/cache')
export class CacheController {
  constructor(private readonly cache: ResponseCacheService) {}

  @Get('stats')
  @Permission('Cache', 'View')
  @ApiOperation({
    operationId: 'getCacheStats',
    summary: 'Response cache statistics',
    description:
      'Live entries, their bytes, hits, misses and the hit rate since start (per process in the embedded mode, shared through Redis in scale-out).',
  })
  @ApiOkResponse({ type: CacheStatsDto })
  stats(): Promise<CacheStatsDto> {
    return this.cache.stats();
  }

  @Delete('clear/:request_id')
  @Permission('Cache', 'Delete')
  @ApiOperation({
    operationId: 'clearCacheByRequest',
    summary: 'Remove the entry a request wrote',
    description:
      'The entry stored from the answer to that request (its `x-request-id`). None (never written, expired or removed): 404 `cache_entry_not_found`.',
  })
  @ApiParam({ name: 'request_id', description: 'The x-request-id of the request whose answer was stored' })
  @ApiOkResponse({ type: CacheClearResponseDto })
  @ApiErrorResponses(404)
  clearByRequest(@Param('request_id') requestId: string): Promise<CacheClearResponseDto> {
    return this.cache.clearByRequest(requestId);
  }

  @Delete('clear-by-key/:cache_key')
  @Permission('Cache', 'Delete')
  @ApiOperation({
    operationId: 'clearCacheByKey',
    summary: 'Remove an entry by its key',
    description: 'The key is the `x-gateway-cache-key` of the answers it served. Unknown: 404 `cache_entry_not_found`.',
  })
  @ApiParam({ name: 'cache_key', description: 'The entry key: 64 hex digits', example: 'a'.repeat(64) })
  @ApiOkResponse({ type: CacheClearResponseDto })
  @ApiErrorResponses(404)
  clearByKey(@Param('cache_key') key: string): Promise<CacheClearResponseDto> {
    return this.cache.clearByKey(key);
  }
}
