import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ManagementTickets } from '../auth/management-tickets.js';
import { CurrentPrincipal, type Principal } from '../auth/principal.js';
import { AcceptsTicket, Permission } from '../auth/route-access.decorator.js';
import { ApiErrorResponses } from '../errors/api-errors.decorator.js';
import { LiveEventDto } from './live-event.dto.js';
import { LiveHub } from './live-hub.js';
import { WsTicketDto } from './ws-ticket.dto.js';

/** The dashboard's live channel (docs/live-channel.md). */
@ApiTags('Live')
@ApiExtraModels(LiveEventDto)
@Controller()
export class LiveController {
  constructor(
    private readonly hub: LiveHub,
    private readonly tickets: ManagementTickets,
  ) {}

  @Get('ws')
  @Permission('Dashboard', 'View')
  @AcceptsTicket()
  @ApiOperation({
    operationId: 'openLiveChannel',
    summary: 'The live channel: a WebSocket pushing log rows, changes and circuit events the caller may view',
    description:
      'Management credentials (session cookie, Basic, management bearer, the setup lock) or `?ticket=` from ' +
      '`POST /api/session/ws-ticket`. Refusals are GatewayErrors answered before the upgrade. Messages are JSON ' +
      'text frames, the `LiveEvent` schema (`LiveLogEvent` for request-log rows); docs/live-channel.md lists them.',
  })
  @ApiResponse({ status: 101, description: 'Switching Protocols: the WebSocket is open' })
  @ApiErrorResponses(400, 401, 403, 426, 503)
  connect(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.hub.accept(request, reply);
  }

  @Post('api/session/ws-ticket')
  @Permission('Dashboard', 'View')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createWsTicket',
    summary: 'A one-use ticket (30 s) to open GET /ws from a browser, which cannot set headers on a WebSocket',
  })
  @ApiOkResponse({ type: WsTicketDto, description: 'The ticket and when it expires' })
  async ticket(@CurrentPrincipal() principal: Principal): Promise<WsTicketDto> {
    const { ticket, expiresAt } = await this.tickets.issue(principal);
    return { ticket, expires_at: new Date(expiresAt).toISOString() };
  }
}
