import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RequestLogContentEntity } from './entities/request-log-content.entity.js';
import { RequestLogEntity } from './entities/request-log.entity.js';
import { LogsController } from './logs.controller.js';
import { RequestLogQuery } from './request-log.query.js';
import { RequestLogStore } from './request-log.store.js';

/**
 * Request logs (`/api/logs`): the store the completion's recorder appends rows to, and the read side. The rows are
 * written by the inference path (`RequestLogRecorder`, in the inference module), never here.
 */
@Module({
  imports: [TypeOrmModule.forFeature([RequestLogEntity, RequestLogContentEntity])],
  controllers: [LogsController],
  providers: [RequestLogStore, RequestLogQuery],
  exports: [RequestLogStore],
})
export class RequestLogsModule {}
