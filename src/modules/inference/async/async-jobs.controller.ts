import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INFERENCE_CALLERS } from '../v1/inference-callers.js';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { AcceptsBody } from '../../../core/http/media-types.js';
import { INFERENCE_BODY_SCHEMAS } from '../v1/inference-schemas.js';
import { ASYNC_JOB_TYPES, type AsyncJobType } from './async-job-types.js';
import { AsyncJobsService } from './async-jobs.service.js';
import { AsyncJobAcceptedDto, AsyncJobDto } from './dto/async-job.dto.js';

/**
 * `/v1/async/<type>` (docs/async.md): submit a request of any synchronous inference type and poll its job. Same body
 * and virtual-key auth as the synchronous route. One submit and one poll route per type, declared from
 * ASYNC_JOB_TYPES below, so each has its own operation in the OpenAPI document.
 */
@ApiTags('Async inference')
@Controller('v1/async')
@VirtualKeyAuth(INFERENCE_CALLERS)
export class AsyncJobsController {
  constructor(private readonly jobs: AsyncJobsService) {}

  async submit(type: string, request: FastifyRequest): Promise<AsyncJobAcceptedDto> {
    const entry = ASYNC_JOB_TYPES[type]!;
    const canonical = await this.jobs.canonicalBody(request, entry.multipart);
    return this.jobs.submit(request, { type, kind: entry.kind, path: entry.path, canonical });
  }

  async poll(type: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const jobId = (request.params as { job_id: string }).job_id;
    const { status, job } = await this.jobs.poll(request, type, jobId);
    await reply.status(status).send(job);
  }
}

type Handler = (...args: never[]) => Promise<unknown>;

/** Declares `POST /v1/async/<type>` and `GET /v1/async/<type>/{job_id}` as methods of the controller. */
function declareRoutes(type: string, entry: AsyncJobType): void {
  const prototype = AsyncJobsController.prototype as unknown as Record<string, Handler>;
  const submitName = `submit${entry.operationId}`;
  const pollName = `poll${entry.operationId}`;
  prototype[submitName] = function (this: AsyncJobsController, request: FastifyRequest) {
    return this.submit(type, request);
  };
  prototype[pollName] = function (this: AsyncJobsController, request: FastifyRequest, reply: FastifyReply) {
    return this.poll(type, request, reply);
  };
  const submit = Object.getOwnPropertyDescriptor(prototype, submitName)!;
  // The class's @VirtualKeyAuth covers only the methods that existed when it ran: these are added after.
  const submitDecorators: MethodDecorator[] = [
    VirtualKeyAuth(INFERENCE_CALLERS),
    Post(type),
    HttpCode(202),
    ApiOperation({ operationId: `createAsync${entry.operationId}`, summary: `Submit ${entry.summary} as a job` }),
    ApiBody({ schema: INFERENCE_BODY_SCHEMAS[entry.kind] }),
    ApiResponse({ status: 202, type: AsyncJobAcceptedDto, description: 'The job, pending' }),
    ApiErrorResponses(400, 401, 403, 404),
    ...(entry.multipart ? [AcceptsBody('multipart/form-data')] : []),
  ];
  for (const decorate of submitDecorators) decorate(prototype, submitName, submit);
  Req()(prototype, submitName, 0);
  Object.defineProperty(prototype, submitName, submit);

  const poll = Object.getOwnPropertyDescriptor(prototype, pollName)!;
  const pollDecorators: MethodDecorator[] = [
    VirtualKeyAuth(INFERENCE_CALLERS),
    Get(`${type}/:job_id`),
    ApiOperation({ operationId: `getAsync${entry.operationId}`, summary: `Poll a job of ${entry.summary}` }),
    ApiParam({ name: 'job_id', format: 'uuid' }),
    ApiResponse({
      status: 200,
      type: AsyncJobDto,
      description: 'Finished: completed with `result` or failed with `error`',
    }),
    ApiResponse({ status: 202, type: AsyncJobDto, description: 'Pending or processing' }),
    ApiErrorResponses(401, 403, 404),
  ];
  for (const decorate of pollDecorators) decorate(prototype, pollName, poll);
  Req()(prototype, pollName, 0);
  Res()(prototype, pollName, 1);
  Object.defineProperty(prototype, pollName, poll);
}

for (const [type, entry] of Object.entries(ASYNC_JOB_TYPES)) declareRoutes(type, entry);
