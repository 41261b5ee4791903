import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type {} from '../../../core/auth/principal.js';
import { Permission, VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { VirtualKeyQuotaDto } from './dto/quota.dto.js';
import { QuotaReader } from './quota.reader.js';
import { VirtualKeysService } from '../virtual-keys/virtual-keys.service.js';

/**
 * `GET /api/governance/virtual-keys/quota`: a virtual key's own view of every budget and rate limit covering it.
 * Fastify matches the static `quota` before the virtual keys controller's `:vk_id`. `GET …/{vk_id}/quota` is the
 * same view for the management API (the dashboard's bars).
 */
@ApiTags('Virtual keys')
@Controller('api/governance/virtual-keys')
export class QuotaController {
  constructor(
    private readonly quota: QuotaReader,
    private readonly keys: VirtualKeysService,
  ) {}

  @Get('quota')
  @VirtualKeyAuth()
  @ApiOperation({
    operationId: 'getVirtualKeyQuota',
    summary: 'The calling virtual key’s budgets and rate limits (every level covering it) with usage and reset times',
  })
  @ApiOkResponse({ type: VirtualKeyQuotaDto })
  @ApiErrorResponses(401, 403, 503)
  // `@Req()` rather than a custom parameter decorator: request parameters skip the global pipe on this hot route.
  async get(@Req() request: FastifyRequest): Promise<VirtualKeyQuotaDto> {
    const vk = request.principal?.virtualKey;
    if (!vk) throw GatewayException.unauthorized('missing_credentials', 'A virtual key is required');
    return this.quota.read(vk.id, vk.name);
  }

  @Get(':vk_id/quota')
  @Permission('VirtualKeys', 'View')
  @ApiOperation({
    operationId: 'getVirtualKeyQuotaById',
    summary: 'A virtual key’s budgets and rate limits (every level covering it) with usage and reset times',
    description: 'What `GET /api/governance/virtual-keys/quota` shows the key itself, for a caller managing keys.',
  })
  @ApiOkResponse({ type: VirtualKeyQuotaDto })
  @ApiErrorResponses(404, 503)
  async getById(@Param('vk_id') id: string): Promise<VirtualKeyQuotaDto> {
    const key = await this.keys.get(id);
    return this.quota.read(key.id, key.name);
  }
}
