import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { In, IsNull, type DataSource, type QueryDeepPartialEntity } from 'typeorm';
import { JOB_TICKET_HEADER } from '../../../core/auth/credential-headers.js';
import { JobTickets } from '../../../core/auth/job-tickets.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { parseDuration } from '../../../core/config/duration.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { type JobPayloads } from '../../../core/queue/job-catalogue.js';
import { INFERENCE_JOBS, INFERENCE_JOB_SETTINGS } from '../inference.jobs.js';
import { JobHandler, type JobContext } from '../../../core/queue/job-handler.decorator.js';
import { WebhookNotifier } from '../../webhooks/index.js';
import { AsyncJobMetrics } from './async-job.metrics.js';
import { AsyncJobEntity, type AsyncJobStatus } from './entities/async-job.entity.js';

/** What a finished job stores: its status, the answer's status code, and the result or the error. */
interface Outcome {
  status: Extract<AsyncJobStatus, 'completed' | 'failed'>;
  statusCode: number;
  result?: Record<string, unknown>;
  error?: Record<string, unknown>;
}

/** The webhook events a finished job sends (docs/webhooks.md). */
export const ASYNC_JOB_EVENTS = { completed: 'async_job.completed', failed: 'async_job.failed' } as const;

/**
 * Runs async jobs on the worker processes. A job is replayed through the gateway's own HTTP stack (Fastify's
 * in-process `inject`, no socket) as its virtual key, so it takes exactly the synchronous path: validation, routing,
 * retries, fallbacks, governance, request logs and metrics. The virtual key rides in a single-use ticket; the replay
 * marks the row `dispatched_at` just before the provider call, so a worker lost after that point fails the job with
 * `async_job_interrupted` instead of calling (and billing) the provider twice.
 */
@Injectable()
export class AsyncJobRunner {
  private readonly timeoutMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly http: HttpAdapterHost,
    private readonly tickets: JobTickets,
    private readonly webhooks: WebhookNotifier,
    private readonly metrics: AsyncJobMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
    config: GatewayConfig,
  ) {
    this.timeoutMs = parseDuration(config.async_jobs.job_timeout) ?? 600_000;
  }

  private get repository() {
    return this.dataSource.getRepository(AsyncJobEntity);
  }

  @JobHandler(INFERENCE_JOBS.asyncRun)
  async run(payload: JobPayloads['inference.async-run'], context: JobContext): Promise<{ status: string } | null> {
    const row = await this.repository.findOneBy({ id: payload.job_id });
    if (!row) return null;
    if (row.status === 'completed' || row.status === 'failed') return { status: row.status };
    if (row.dispatched_at) {
      // An earlier run reached the provider and was lost with its worker: the provider may have answered and billed.
      const lost = new GatewayException(
        500,
        'async_job_interrupted',
        'The worker running this job stopped after the request had been sent to the provider; it was not sent again',
        { reason: 'gateway_dropped' },
      );
      await this.finish(row, { status: 'failed', statusCode: 500, error: { ...toErrorResponse(lost).body } });
      return { status: 'failed' };
    }
    const startedAt = new Date();
    // Compare-and-set on the attempt count: of two runs of the same job (a stalled worker that wakes up after its job
    // was handed to another), only one claims each attempt, and only the latest claim may dispatch.
    const attempt = row.attempts + 1;
    const claimed = await this.repository.update(
      { id: row.id, status: In(['pending', 'processing']), dispatched_at: IsNull(), attempts: row.attempts },
      { status: 'processing', started_at: startedAt, attempts: attempt },
    );
    if (!claimed.affected) return null;
    if (row.attempts === 0) this.metrics.waited(row.type, (startedAt.getTime() - row.created_at.getTime()) / 1000);
    const { outcome, dispatched, superseded } = await this.replay(row, attempt, context);
    // A later run took the job over before this one reached the provider: that run records the outcome.
    if (superseded) return null;
    // The gateway itself could not take the request (shutting down, its limits store unreachable) and nothing reached
    // a provider: the queue runs the job again later, unless this was its last attempt.
    if (
      outcome.statusCode === 503 &&
      !dispatched &&
      context.attempt < INFERENCE_JOB_SETTINGS[INFERENCE_JOBS.asyncRun].attempts
    ) {
      await this.repository.update({ id: row.id }, { status: 'pending' });
      throw new Error(`async job ${row.id}: the gateway answered 503 before calling a provider; retrying`);
    }
    await this.finish(row, outcome);
    this.metrics.ran(row.type, outcome.status, (Date.now() - startedAt.getTime()) / 1000);
    return { status: outcome.status };
  }

  /** The synchronous route, called in-process as the job's virtual key. */
  private async replay(
    row: AsyncJobEntity,
    attempt: number,
    context: JobContext,
  ): Promise<{ outcome: Outcome; dispatched: boolean; superseded: boolean }> {
    let dispatched = false;
    let superseded = false;
    const ticket = this.tickets.issue({
      jobId: row.id,
      virtualKeyId: row.virtual_key_id,
      dispatched: async () => {
        const marked = await this.repository.update(
          { id: row.id, attempts: attempt, dispatched_at: IsNull() },
          { dispatched_at: new Date() },
        );
        if (!marked.affected) {
          superseded = true;
          throw new GatewayException(409, 'in_use', 'Another run of this async job took it over; this one stopped');
        }
        dispatched = true;
      },
    });
    const signals = [AbortSignal.timeout(this.timeoutMs), ...(context.signal ? [context.signal] : [])];
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    try {
      const response = await fastify.inject({
        method: 'POST',
        url: row.path,
        headers: { ...row.request_headers, 'content-type': row.request_content_type, [JOB_TICKET_HEADER]: ticket },
        // The embedded database hands bytea back as a Uint8Array, which inject would serialise as an object.
        payload: Buffer.from(row.request_body),
        signal: AbortSignal.any(signals),
      });
      const outcome = outcomeOf(
        response.statusCode,
        String(response.headers['content-type'] ?? ''),
        response.rawPayload,
      );
      return { outcome, dispatched, superseded };
    } catch (err) {
      const timedOut = signals[0]!.aborted;
      const error = timedOut
        ? new GatewayException(504, 'upstream_timeout', `The job did not finish within ${this.timeoutMs} ms`, {
            reason: 'provider_timeout',
          })
        : err;
      if (!timedOut) this.logger.error({ err, job_id: row.id }, 'async job replay failed');
      const rendered = toErrorResponse(error);
      return {
        outcome: { status: 'failed', statusCode: rendered.status, error: { ...rendered.body } },
        dispatched,
        superseded,
      };
    } finally {
      this.tickets.revoke(ticket);
    }
  }

  /** Stores the outcome (the result readable until completion + TTL) and sends the job's webhook, if it named one. */
  private async finish(row: AsyncJobEntity, outcome: Outcome): Promise<void> {
    const completedAt = new Date();
    const expiresAt = new Date(completedAt.getTime() + row.result_ttl * 1000);
    // jsonb columns take the object as a value (TypeORM's update type would read it as a nested entity).
    const finished = {
      status: outcome.status,
      status_code: outcome.statusCode,
      result: outcome.result ?? null,
      error: outcome.error ?? null,
      completed_at: completedAt,
      expires_at: expiresAt,
    } as QueryDeepPartialEntity<AsyncJobEntity>;
    // One terminal transition per job: a run that finishes after another already did (a stalled worker's) changes
    // nothing and sends no second event.
    const ended = await this.repository.update({ id: row.id, status: In(['pending', 'processing']) }, finished);
    if (!ended.affected || !row.webhook_id) return;
    const event = ASYNC_JOB_EVENTS[outcome.status];
    await this.webhooks.notify(row.webhook_id, event, {
      id: row.id,
      type: row.type,
      status: outcome.status,
      status_code: outcome.statusCode,
      ...(outcome.result !== undefined ? { result: outcome.result } : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      created_at: row.created_at.toISOString(),
      completed_at: completedAt.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
  }
}

/** The synchronous answer as a job's result: JSON as is, audio base64, a text transcript as text. */
function outcomeOf(statusCode: number, contentType: string, payload: Buffer): Outcome {
  const json = /^application\/(.+\+)?json/i.test(contentType);
  let body: Record<string, unknown>;
  if (json) {
    try {
      const parsed: unknown = JSON.parse(payload.toString('utf8'));
      body =
        typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : { value: parsed };
    } catch {
      body = { content_type: contentType, text: payload.toString('utf8') };
    }
  } else if (/^text\//i.test(contentType)) {
    body = { content_type: contentType, text: payload.toString('utf8') };
  } else {
    body = { content_type: contentType, data: payload.toString('base64') };
  }
  if (statusCode >= 200 && statusCode < 300) return { status: 'completed', statusCode, result: body };
  return { status: 'failed', statusCode, error: body };
}
