import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RouteCredential } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { AgentErrorFields } from '../data-plane/a2a-errors.js';
import { PushAckDto } from './dto/push-config.dto.js';
import { PUSH_CALLBACK_CHECK } from './push-callback-check.js';
import { PushIngressService } from './push-ingress.service.js';

/**
 * Push callbacks of upstream agents. Not behind caller auth: each config has its own token, minted by the gateway
 * and only ever given to the upstream; `PushCallbackCheck` verifies it before the body is read.
 */
@ApiTags('Agents data plane')
@Controller('agents/a2a/:name/push')
@AgentErrorFields()
export class PushIngressController {
  constructor(private readonly ingress: PushIngressService) {}

  @Post()
  @HttpCode(200)
  @RouteCredential(PUSH_CALLBACK_CHECK)
  @ApiOperation({
    operationId: 'agentPushCallback',
    summary: 'Push notification callback from the upstream agent (re-delivered to the client webhook)',
    description:
      'The upstream presents the token the gateway minted for the config (Authorization: Bearer, ' +
      'X-A2A-Notification-Token or A2A-Notification-Token); it is checked before the body is read: 401 ' +
      '`missing_credentials` without one, 401 `invalid_credentials` for an unknown config or a wrong token.',
  })
  @ApiQuery({ name: 'config', type: String, description: 'Gateway push config id' })
  @ApiOkResponse({ type: PushAckDto })
  @ApiErrorResponses(401)
  async callback(@Req() request: FastifyRequest): Promise<PushAckDto> {
    const config = request.pushConfig;
    if (!config)
      throw GatewayException.unauthorized('invalid_credentials', 'Unknown push config or wrong notification token');
    return this.ingress.accept({
      config,
      rawBody: JSON.stringify(request.body ?? null),
      body: request.body,
    });
  }
}
