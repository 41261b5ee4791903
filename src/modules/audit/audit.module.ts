import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { FastifyInstance } from 'fastify';
import { RouteAccessRegistry } from '../../core/auth/route-access.registry.js';
import { AuditController } from './audit.controller.js';
import { registerAuditHook } from './audit.hook.js';
import { AuditService } from './audit.service.js';
import { AuditLogEntity } from './entities/audit-log.entity.js';

/** The audit log of management writes and `GET /api/audit-logs`. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditLogEntity])],
  controllers: [AuditController],
  providers: [AuditService],
  exports: [AuditService],
})
export class AuditModule implements OnModuleInit {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly audit: AuditService,
    private readonly registry: RouteAccessRegistry,
  ) {}

  onModuleInit(): void {
    registerAuditHook(this.host.httpAdapter.getInstance<FastifyInstance>(), this.audit, this.registry);
  }
}
