import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { headerValue } from '../../../core/http/request-header.js';
import type { NativeOperation } from '../formats/native-format.js';
import { ASYNC_HEADER, ASYNC_ID_HEADER } from './async-job-request.js';
import { AsyncJobsService } from './async-jobs.service.js';

/**
 * Async jobs on the provider-format routes (docs/async.md), so native SDK users get them by adding a header:
 * `x-gateway-async: true` submits the request as a job (202 and `x-gateway-async-id`); the same route with
 * `x-gateway-async-id: <id>` polls it. A finished job answers as the route itself would have: the native answer with
 * 200, or the native error with its status, so the SDK parses it as usual. A job is polled on the route it was
 * submitted to.
 */
@Injectable()
export class NativeAsync {
  constructor(private readonly jobs: AsyncJobsService) {}

  /** Whether the request asks for the async behaviour (read on provider-format routes only). */
  static wanted(request: FastifyRequest): boolean {
    return request.headers[ASYNC_HEADER] !== undefined || request.headers[ASYNC_ID_HEADER] !== undefined;
  }

  async serve(
    operation: NativeOperation,
    params: Record<string, string>,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const type = request.routeOptions.url ?? request.url.split('?')[0]!;
    const jobId = headerValue(request, ASYNC_ID_HEADER);
    if (jobId !== undefined) return this.poll(type, jobId, request, reply);
    const flag = headerValue(request, ASYNC_HEADER)?.toLowerCase();
    if (flag !== 'true') {
      throw GatewayException.validation(ASYNC_HEADER, `${ASYNC_HEADER} must be "true" to submit the request as a job`);
    }
    if (operation.kind === 'count_tokens') {
      throw GatewayException.validation(ASYNC_HEADER, 'Token counts are answered at once: they cannot be async jobs');
    }
    const query = (request.query ?? {}) as Record<string, string | undefined>;
    const canonical = operation.toCanonical(request.body, params, query, request.headers).body;
    const accepted = await this.jobs.submit(request, { type, kind: operation.kind, canonical });
    await reply.status(202).header(ASYNC_ID_HEADER, accepted.id).send(accepted);
  }

  private async poll(type: string, jobId: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { status, job } = await this.jobs.poll(request, type, jobId);
    reply.header(ASYNC_ID_HEADER, job.id).header('x-gateway-async-status', job.status);
    if (job.status === 'failed') {
      await reply.status(job.status_code).send(job.error);
      return;
    }
    if (job.status !== 'completed') {
      await reply.status(status).send(job);
      return;
    }
    const result = job.result as { content_type?: unknown; data?: unknown; text?: unknown };
    // Audio or a text transcript: the bytes as the route would have sent them.
    if (
      typeof result.content_type === 'string' &&
      (typeof result.data === 'string' || typeof result.text === 'string')
    ) {
      const bytes =
        typeof result.data === 'string' ? Buffer.from(result.data, 'base64') : Buffer.from(String(result.text));
      await reply.status(job.status_code).header('content-type', result.content_type).send(bytes);
      return;
    }
    await reply.status(job.status_code).send(job.result);
  }
}
