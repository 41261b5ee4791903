import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { FastifyInstance } from 'fastify';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { ConfigController } from './config.controller.js';
import { registerCorsHook } from './cors.hook.js';
import { RuntimeSettingEntity } from './entities/runtime-setting.entity.js';
import { RuntimeConfigService } from './runtime-config.service.js';

/** Runtime settings (`GET|PUT /api/config`, docs/config.md) and the CORS hook that reads one of them. */
@Module({
  imports: [TypeOrmModule.forFeature([RuntimeSettingEntity])],
  controllers: [ConfigController],
  providers: [RuntimeConfigService],
  exports: [RuntimeConfigService],
})
export class SettingsModule implements OnModuleInit {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    registerCorsHook(this.host.httpAdapter.getInstance<FastifyInstance>(), this.config);
  }
}
