import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Permission } from '../auth/route-access.decorator.js';
import { MetricsService } from './metrics.service.js';

@ApiTags('System')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @Permission('Metrics', 'View')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ operationId: 'getMetrics', summary: 'Prometheus metrics (request counts and latency by route)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format', schema: { type: 'string' } })
  metricsText(): Promise<string> {
    return this.metrics.render();
  }
}
