import { SetMetadata } from '@nestjs/common';
import type { JobName, JobPayloads } from './job-catalogue.js';

export const JOB_HANDLER_METADATA = 'gateway:job-handler';

export interface JobContext {
  jobId: string;
  /** 1 for the first run, 2 for the first retry, ... */
  attempt: number;
  updateProgress(progress: number | object): Promise<void>;
  /** Aborted when the job's timeoutMs passes. */
  signal?: AbortSignal;
}

export type JobHandlerFn<K extends JobName> = (payload: JobPayloads[K], context: JobContext) => Promise<unknown>;

/**
 * Marks a provider method as THE handler of a job. Discovered at bootstrap; every defined job needs exactly
 * one handler or start-up fails naming the job.
 */
export function JobHandler<K extends JobName>(name: K) {
  return <T extends JobHandlerFn<K>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<T>,
  ): TypedPropertyDescriptor<T> => {
    SetMetadata(JOB_HANDLER_METADATA, name)(target, key, descriptor);
    return descriptor;
  };
}
