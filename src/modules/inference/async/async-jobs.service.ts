import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import {
  Between,
  In,
  LessThan,
  MoreThanOrEqual,
  type DataSource,
  type FindOptionsWhere,
  type QueryDeepPartialEntity,
} from 'typeorm';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { headerValue } from '../../../core/http/request-header.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { ExpiredRowsRegistry } from '../../../core/maintenance/expired-rows.service.js';
import { INFERENCE_JOBS } from '../inference.jobs.js';
import { JobRecoveryRegistry } from '../../../core/queue/job-recovery.registry.js';
import { QueueService } from '../../../core/queue/queue.service.js';
import { WebhookNotifier } from '../../webhooks/index.js';
import { encodeMultipartForm, formFieldsOf, parseMultipartForm } from '../media/multipart-form.js';
import { isUploadedFile } from '../media/uploaded-file.js';
import type { InferenceKind, Json } from '../providers/shared/provider-adapter.js';
import { validateInferenceBody } from '../v1/inference-request.js';
import { ASYNC_WEBHOOK_HEADER, resultTtlOf, storableHeaders, storablePath } from './async-job-request.js';
import type { AsyncJobAcceptedDto, AsyncJobDto, AsyncJobListDto, AsyncJobsQueryDto } from './dto/async-job.dto.js';
import { AsyncJobEntity } from './entities/async-job.entity.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How long a submit waits for its enqueue. The row is stored first, so the job is accepted either way: an enqueue
 * that takes longer (Redis down or reconnecting: BullMQ holds the command until it is back) goes on in the background
 * and lands when Redis answers again, and the recovery sweep re-enqueues the row if it never does.
 */
export const SUBMIT_ENQUEUE_WAIT_MS = 1_000;

/** What a submit stores: the route to replay and the body as the caller sent it, with its canonical form to check. */
export interface AsyncSubmission {
  /** The async type (`chat/completions`) or, for a provider-format route, its route pattern. */
  type: string;
  kind: InferenceKind;
  /** The synchronous route to replay (path and query); default the request's own path. */
  path?: string;
  /** The canonical /v1 body, validated before the job is accepted. */
  canonical: unknown;
}

/**
 * Async inference jobs (docs/async.md): a submit validates the request as the synchronous route would, stores it
 * without its credentials and enqueues the job; the worker replays it (AsyncJobRunner). A poll reads the row, which
 * is the source of truth: only the submitting virtual key sees its job, and only under the type it was submitted to.
 */
@Injectable()
export class AsyncJobsService {
  private readonly logger: Logger;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: QueueService,
    private readonly webhooks: WebhookNotifier,
    private readonly config: GatewayConfig,
    recovery: JobRecoveryRegistry,
    expiredRows: ExpiredRowsRegistry,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ context: 'async-jobs' });
    expiredRows.register({ name: 'async_jobs', table: 'async_jobs', column: 'expires_at' });
    recovery.register({
      job: INFERENCE_JOBS.asyncRun,
      // In-process, nothing survives a restart: every unfinished row is due at start. In Redis, a row younger than a
      // few seconds is most likely still being enqueued (a re-enqueue would be a harmless duplicate anyway).
      graceMs: this.queue.driverKind === 'in-process' ? 0 : 5_000,
      findOrphans: async (olderThanMs, limit) => {
        const rows = await this.repository.find({
          select: { id: true },
          where: {
            status: In(['pending', 'processing']),
            created_at: LessThan(new Date(Date.now() - olderThanMs + 1)),
          },
          order: { created_at: 'ASC' },
          take: limit,
        });
        return rows.map((r) => ({ job_id: r.id }));
      },
    });
  }

  private get repository() {
    return this.dataSource.getRepository(AsyncJobEntity);
  }

  /** The canonical body of a `/v1/async/<type>` request (a multipart upload parsed as the synchronous route does). */
  async canonicalBody(request: FastifyRequest, multipart: boolean): Promise<unknown> {
    if (multipart && Buffer.isBuffer(request.body)) {
      return parseMultipartForm(request.body, String(request.headers['content-type']));
    }
    return request.body;
  }

  /** Validates and stores a job, then enqueues it: 202 `{ id, status, created_at }`. */
  async submit(request: FastifyRequest, submission: AsyncSubmission): Promise<AsyncJobAcceptedDto> {
    this.refuseDirectKey(request);
    const { stream } = validateInferenceBody(submission.kind, submission.canonical);
    if (stream) throw GatewayException.validation('stream', 'An async job cannot stream: poll its result instead');
    const resultTtl = resultTtlOf(request, this.config.inference.async_job_result_ttl);
    const webhookName = headerValue(request, ASYNC_WEBHOOK_HEADER);
    const webhook = webhookName ? await this.webhooks.resolve(webhookName, ASYNC_WEBHOOK_HEADER) : undefined;
    const stored = storedBody(request);
    const row: AsyncJobEntity = this.repository.create({
      id: randomUUID(),
      type: submission.type,
      path: storablePath(request, submission.path),
      status: 'pending',
      status_code: null,
      virtual_key_id: request.principal?.virtualKey?.id ?? null,
      request_body: stored.body,
      request_content_type: stored.contentType,
      request_headers: storableHeaders(request),
      result: null,
      error: null,
      result_ttl: resultTtl,
      webhook_id: webhook?.id ?? null,
      attempts: 0,
      dispatched_at: null,
      started_at: null,
      completed_at: null,
      expires_at: null,
    });
    // One INSERT … RETURNING: save() would first look the new id up and wrap both in a transaction (four round trips
    // on the submit path instead of one).
    // jsonb columns take their object as a value (TypeORM's insert type would read it as a nested entity).
    const inserted = await this.repository.insert(row as QueryDeepPartialEntity<AsyncJobEntity>);
    const createdAt = (inserted.generatedMaps[0] as Partial<AsyncJobEntity> | undefined)?.created_at ?? new Date();
    // Stored first: a lost enqueue (the queue down for a moment) is picked up by the recovery sweep.
    await this.enqueueBounded(row.id);
    return { id: row.id, status: 'pending', created_at: createdAt.toISOString() };
  }

  /**
   * Enqueues a stored job, waiting at most SUBMIT_ENQUEUE_WAIT_MS: with Redis down, BullMQ keeps the command until
   * it reconnects, and a submit must not hang that long. A failed or late enqueue is logged; the job is not lost.
   */
  private async enqueueBounded(jobId: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const enqueued = this.queue.enqueue(INFERENCE_JOBS.asyncRun, { job_id: jobId }).then(
      () => 'enqueued' as const,
      (err: unknown) => {
        this.logger.warn({ err, job_id: jobId }, 'async job enqueue failed: the recovery sweep will enqueue it');
        return 'failed' as const;
      },
    );
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SUBMIT_ENQUEUE_WAIT_MS)));
    const outcome = await Promise.race([enqueued, late]);
    clearTimeout(timer);
    if (outcome === 'late') this.logger.warn({ job_id: jobId }, 'async job enqueue slow: accepted, still enqueuing');
  }

  /**
   * The job as its owner sees it, with the HTTP status to answer (202 unfinished, 200 finished). Another key's job,
   * one of another type, an expired one, or none: 404.
   */
  async poll(request: FastifyRequest, type: string, id: string): Promise<{ status: 200 | 202; job: AsyncJobDto }> {
    const row = UUID.test(id) ? await this.repository.findOneBy({ id }) : null;
    const owner = request.principal?.virtualKey?.id ?? null;
    const expired = row?.expires_at && row.expires_at.getTime() <= Date.now();
    if (!row || row.type !== type || row.virtual_key_id !== owner || expired) {
      throw GatewayException.notFound('async_job', `Async job ${id} not found or expired`);
    }
    const finished = row.status === 'completed' || row.status === 'failed';
    const job: AsyncJobDto = {
      id: row.id,
      status: row.status,
      status_code: finished ? (row.status_code ?? 500) : 202,
      created_at: row.created_at.toISOString(),
    };
    if (row.status === 'completed') job.result = row.result;
    if (row.status === 'failed') job.error = row.error;
    if (row.completed_at) job.completed_at = row.completed_at.toISOString();
    if (row.expires_at) job.expires_at = row.expires_at.toISOString();
    return { status: finished ? 200 : 202, job };
  }

  /** Operators' list, newest first (`GET /api/async-jobs`). */
  async list(query: AsyncJobsQueryDto): Promise<AsyncJobListDto> {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const where: FindOptionsWhere<AsyncJobEntity> = {};
    if (query.status) where.status = query.status;
    if (query.type) where.type = query.type;
    if (query.virtual_key_id) where.virtual_key_id = query.virtual_key_id;
    const start = query.start_time ? new Date(query.start_time) : undefined;
    const end = query.end_time ? new Date(query.end_time) : undefined;
    if (start && end) where.created_at = Between(start, new Date(end.getTime() - 1));
    else if (start) where.created_at = MoreThanOrEqual(start);
    else if (end) where.created_at = LessThan(end);
    const [rows, total] = await this.repository.findAndCount({
      select: {
        id: true,
        type: true,
        status: true,
        status_code: true,
        virtual_key_id: true,
        webhook_id: true,
        attempts: true,
        error: true,
        created_at: true,
        started_at: true,
        completed_at: true,
        expires_at: true,
      },
      where,
      order: { created_at: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
    return {
      jobs: rows.map((r) => ({
        id: r.id,
        type: r.type,
        status: r.status,
        status_code: r.status_code,
        virtual_key_id: r.virtual_key_id,
        webhook_id: r.webhook_id,
        attempts: r.attempts,
        ...(r.error ? { error: r.error } : {}),
        created_at: r.created_at.toISOString(),
        started_at: r.started_at?.toISOString() ?? null,
        completed_at: r.completed_at?.toISOString() ?? null,
        expires_at: r.expires_at?.toISOString() ?? null,
      })),
      pagination: { total_count: total, limit, offset, sort_by: 'created_at', order: 'desc' },
    };
  }

  /** A provider key passed through cannot be stored for a later run: async jobs use the gateway's stored keys. */
  private refuseDirectKey(request: FastifyRequest): void {
    if (request.credential?.kind === 'provider_key') {
      throw GatewayException.validation(
        'authorization',
        "An async job runs with the gateway's stored provider keys: a provider key passed through is not accepted",
      );
    }
  }
}

/**
 * The body to replay, in the form the route takes: the bytes as received, a form already parsed by a provider-format
 * route encoded again as multipart, else JSON.
 */
function storedBody(request: FastifyRequest): { body: Buffer; contentType: string } {
  const body = request.body;
  if (Buffer.isBuffer(body)) return { body, contentType: String(request.headers['content-type']) };
  const hasFile =
    typeof body === 'object' &&
    body !== null &&
    Object.values(body).some((v) => isUploadedFile(v) || (Array.isArray(v) && v.some(isUploadedFile)));
  if (hasFile) return encodeMultipartForm(formFieldsOf(body as Json));
  return { body: Buffer.from(JSON.stringify(body ?? null)), contentType: 'application/json' };
}
