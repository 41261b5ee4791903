import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhooksModule } from '../../webhooks/index.js';
import { AsyncJobMetrics } from './async-job.metrics.js';
import { AsyncJobRunner } from './async-job.runner.js';
import { AsyncJobsAdminController } from './async-jobs-admin.controller.js';
import { AsyncJobsController } from './async-jobs.controller.js';
import { AsyncJobsService } from './async-jobs.service.js';
import { AsyncJobEntity } from './entities/async-job.entity.js';
import { NativeAsync } from './native-async.js';

/**
 * Async inference jobs (`/v1/async/…`, `/api/async-jobs`): stored requests replayed through the gateway's own HTTP
 * path by the `inference.async-run` job, and the provider-format routes' async behaviour (`NativeAsync`).
 */
@Module({
  imports: [WebhooksModule, TypeOrmModule.forFeature([AsyncJobEntity])],
  controllers: [AsyncJobsController, AsyncJobsAdminController],
  providers: [AsyncJobsService, AsyncJobRunner, AsyncJobMetrics, NativeAsync],
  exports: [NativeAsync],
})
export class AsyncJobsModule {}
