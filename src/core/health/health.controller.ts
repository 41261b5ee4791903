import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { Public } from '../auth/route-access.decorator.js';
import { GatewayConfig } from '../config/gateway-config.js';
import { ApiErrorResponses } from '../errors/api-errors.decorator.js';
import { GatewayException } from '../errors/gateway.exception.js';
import { REDIS } from '../redis/redis.module.js';
import { API_VERSION, APP_VERSION } from '../version.js';
import { ComponentHealthDto, HealthResponseDto, VersionResponseDto } from './health.dto.js';

const CHECK_TIMEOUT_MS = 2000;

async function timed(kind: string, check: () => Promise<unknown>): Promise<ComponentHealthDto> {
  const started = performance.now();
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref()),
    ]);
    return { status: 'ok', kind, latency_ms: Math.round((performance.now() - started) * 100) / 100 };
  } catch {
    return { status: 'down', kind };
  }
}

@ApiTags('System')
@ApiExtraModels(ComponentHealthDto)
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis | null,
    private readonly config: GatewayConfig,
  ) {}

  @Get('health')
  @Public()
  @ApiOperation({ operationId: 'getHealth', summary: 'Health of the gateway and its database and Redis' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiErrorResponses(503)
  async health(): Promise<HealthResponseDto> {
    const components: Record<string, ComponentHealthDto> = {
      database: await timed(this.config.database_url ? 'postgres' : 'pglite', () => this.dataSource.query('SELECT 1')),
    };
    const redis = this.redis;
    if (redis) components.redis = await timed('redis', () => redis.ping());
    if (Object.values(components).some((c) => c.status !== 'ok')) {
      const down = Object.entries(components)
        .filter(([, c]) => c.status !== 'ok')
        .map(([name]) => name);
      throw new GatewayException(503, 'service_unavailable', `Unhealthy components: ${down.join(', ')}`, {
        reason: 'gateway_internal',
        extraFields: { components },
      });
    }
    return { status: 'ok', components };
  }

  @Get('api/version')
  @Public()
  @ApiOperation({ operationId: 'getVersion', summary: 'Gateway version, interface version and edition' })
  @ApiOkResponse({ type: VersionResponseDto })
  version(): VersionResponseDto {
    return { version: APP_VERSION, api_version: API_VERSION, edition: this.config.edition };
  }
}
