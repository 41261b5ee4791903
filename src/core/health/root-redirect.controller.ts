import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/route-access.decorator.js';
import { DashboardBuild } from '../dashboard/dashboard-build.js';

/**
 * `GET /` sends a browser to the dashboard, or to the API documentation when the dashboard is off. Not an API
 * operation, so not in the OpenAPI document. The location is relative, so a reverse proxy's path prefix is kept.
 */
@ApiExcludeController()
@Controller()
export class RootRedirectController {
  constructor(private readonly dashboard: DashboardBuild) {}

  @Get()
  @Public()
  root(@Res() reply: FastifyReply): void {
    void reply.redirect(this.dashboard.served ? 'ui/' : 'docs', 302);
  }
}
