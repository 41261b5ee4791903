import { Injectable, Module } from '@nestjs/common';
import { JOBS } from '../../../core/queue/job-catalogue.js';
import { JobHandler } from '../../../core/queue/job-handler.decorator.js';

// Placeholder until the async API lands.
@Injectable()
class AsyncJobRunner {
  @JobHandler(JOBS.inferenceAsyncRun)
  run(): Promise<void> {
    return Promise.resolve();
  }
}

@Module({ providers: [AsyncJobRunner] })
export class AsyncJobsModule {}
