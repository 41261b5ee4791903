import { Controller, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { AgentErrorFields } from '../data-plane/a2a-errors.js';
import { PushAckDto } from './dto/push-config.dto.js';
import { PushIngressService } from './push-ingress.service.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The token the upstream presents: `Authorization: Bearer`, else the legacy token headers (a2a-js, a2a-go). */
function presentedToken(request: FastifyRequest): string | undefined {
  const auth = header(request, 'authorization');
  const bearer = auth && /^Bearer\s+(.+)$/i.exec(auth.trim());
  if (bearer?.[1]) return bearer[1].trim();
  return header(request, 'x-a2a-notification-token') ?? header(request, 'a2a-notification-token') ?? undefined;
}

/**
 * Push callbacks of upstream agents. Not behind caller auth: each config has its own token, minted by the gateway
 * and only ever given to the upstream.
 */
@ApiTags('Agents data plane')
@Controller('agents/a2a/:name/push')
@AgentErrorFields()
export class PushIngressController {
  constructor(private readonly ingress: PushIngressService) {}

  @Post()
  @HttpCode(200)
  @Public()
  @ApiOperation({
    operationId: 'agentPushCallback',
    summary: 'Push notification callback from the upstream agent (re-delivered to the client webhook)',
  })
  @ApiQuery({ name: 'config', type: String, description: 'Gateway push config id' })
  @ApiOkResponse({ type: PushAckDto })
  @ApiErrorResponses(404)
  async callback(
    @Req() request: FastifyRequest,
    @Param('name') name: string,
    @Query('config') configId?: string,
  ): Promise<PushAckDto> {
    return this.ingress.accept({
      agentName: name,
      configId,
      token: presentedToken(request),
      rawBody: JSON.stringify(request.body ?? null),
      body: request.body,
    });
  }
}
