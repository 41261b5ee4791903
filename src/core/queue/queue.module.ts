import {
  Global,
  Inject,
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
  type Provider,
} from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BullModule, getQueueToken, type WorkerHost } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { parseDuration } from '../config/duration.js';
import { GatewayConfig } from '../config/gateway-config.js';
import { LOGGER } from '../logging/logging.module.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { BullMqQueueDriver, processorFor, type StalledJobOptions } from './bullmq.driver.js';
import { InProcessQueueDriver } from './in-process.driver.js';
import { JOBS, QUEUES, type QueueName } from './job-catalogue.js';
import { JobHandlerRegistry } from './job-handler.registry.js';
import { JobRecoveryRegistry } from './job-recovery.registry.js';
import { JobRecoveryService } from './job-recovery.service.js';
import { QUEUE_DRIVER, type QueueDriver } from './queue-driver.js';
import { QueueService } from './queue.service.js';

/**
 * Starts workers once every module is initialised (handlers checked), then sweeps for jobs a restart lost; drains the
 * workers before pools close. Hands the driver's job counts to the metrics (gauge `gateway_queue_jobs`).
 */
@Injectable()
class QueueLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(QUEUE_DRIVER) private readonly driver: QueueDriver,
    private readonly queue: QueueService,
    private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: MetricsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.metrics.watchQueueDepth(() => this.driver.jobCounts());
    if (this.config.role === 'api') {
      if (this.driver.kind === 'in-process') {
        this.logger.warn('role api without redis_url: jobs are queued in this process and never run');
      }
      return;
    }
    await this.driver.startWorkers();
    this.logger.debug({ driver: this.driver.kind }, 'queue workers started');
    // The schedule's next run may be a minute away (or, with BullMQ, was due before this restart).
    await this.queue.enqueue(JOBS.recoverJobs, { reason: 'start' });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.driver.drain();
    this.logger.debug({ driver: this.driver.kind }, 'queue drained');
  }
}

export interface QueueModuleOptions {
  /** BullMQ over Redis when set, else the in-process queue. */
  redis_url?: string;
  /** Workers (and schedules) run only in the `worker` and `all` roles. */
  role: GatewayConfig['role'];
  /** Async inference jobs' concurrency per worker and across workers, and how fast a dead worker's jobs return. */
  async_jobs?: Pick<GatewayConfig['async_jobs'], 'concurrency' | 'global_concurrency' | 'lock_duration'>;
}

/** The typed job queue (QueueService) and its driver, chosen from the config. */
@Global()
@Module({})
export class QueueModule {
  static forRoot(options: QueueModuleOptions): DynamicModule {
    const queueNames = Object.values(QUEUES) as QueueName[];
    const concurrency: Partial<Record<QueueName, number>> = options.async_jobs
      ? { [QUEUES.async]: options.async_jobs.concurrency }
      : {};
    const globalConcurrency: Partial<Record<QueueName, number>> = options.async_jobs
      ? { [QUEUES.async]: options.async_jobs.global_concurrency }
      : {};
    const lockMs = parseDuration(options.async_jobs?.lock_duration ?? '');
    const stalled: Partial<Record<QueueName, StalledJobOptions>> = lockMs
      ? { [QUEUES.async]: { lockDuration: lockMs, stalledInterval: lockMs } }
      : {};
    const common: Provider[] = [
      JobHandlerRegistry,
      QueueService,
      QueueLifecycle,
      JobRecoveryRegistry,
      JobRecoveryService,
    ];
    if (!options.redis_url) {
      return {
        module: QueueModule,
        imports: [DiscoveryModule],
        providers: [
          ...common,
          {
            provide: QUEUE_DRIVER,
            inject: [JobHandlerRegistry, LOGGER],
            useFactory: (registry: JobHandlerRegistry, logger: Logger) =>
              new InProcessQueueDriver(registry, logger.child({ context: 'queue' }), concurrency),
          },
        ],
        exports: [QueueService, JobRecoveryRegistry],
      };
    }
    const processors =
      options.role === 'api' ? [] : queueNames.map((queue) => processorFor(queue, concurrency[queue], stalled[queue]));
    return {
      module: QueueModule,
      imports: [
        DiscoveryModule,
        BullModule.forRootAsync({
          inject: [GatewayConfig],
          useFactory: (config: GatewayConfig) => ({
            connection: { url: config.redis_url },
            prefix: config.redis_prefix,
          }),
        }),
        BullModule.registerQueue(...queueNames.map((name) => ({ name }))),
      ],
      providers: [
        ...common,
        ...processors,
        {
          provide: QUEUE_DRIVER,
          inject: [LOGGER, ...queueNames.map((name) => getQueueToken(name)), ...processors],
          useFactory: (logger: Logger, ...rest: unknown[]) => {
            const queues = new Map(queueNames.map((name, i) => [name, rest[i] as Queue]));
            const workers = rest.slice(queueNames.length) as WorkerHost[];
            return new BullMqQueueDriver(queues, workers, logger.child({ context: 'queue' }), globalConcurrency);
          },
        },
      ],
      exports: [QueueService, JobRecoveryRegistry],
    };
  }
}
