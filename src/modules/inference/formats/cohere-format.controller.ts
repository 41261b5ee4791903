import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { NativeErrors } from '../../../core/errors/error-context.js';
import { ModelListingService } from '../catalog/model-listing.service.js';
import { INFERENCE_CALLERS } from '../v1/inference-callers.js';
import { InferencePipeline } from '../v1/inference-pipeline.js';
import { formatPaths } from './format-routes.js';
import type { NativeOperation } from './native-format.js';
import { cohereChat, cohereEmbed, cohereRerank, renderCohereError } from '../providers/cohere/format/cohere-format.js';
import { cohereModelPage, type CohereModel } from '../providers/cohere/format/cohere-model-list.js';

const model = { type: 'string', description: 'A Cohere model, or `<provider>/<model>` of any provider' };
const CHAT_BODY = {
  type: 'object',
  required: ['model', 'messages'],
  properties: { model, messages: { type: 'array', minItems: 1, items: {} }, stream: { type: 'boolean' } },
  additionalProperties: true,
};
const EMBED_BODY = {
  type: 'object',
  required: ['model', 'texts'],
  properties: {
    model,
    texts: { type: 'array', minItems: 1, items: { type: 'string' } },
    input_type: { type: 'string' },
  },
  additionalProperties: true,
};
const RERANK_BODY = {
  type: 'object',
  required: ['model', 'query', 'documents'],
  properties: { model, query: { type: 'string' }, documents: { type: 'array', items: {} }, top_n: { type: 'integer' } },
  additionalProperties: true,
};

/**
 * Cohere's v2 paths for Cohere clients pointed at the gateway (`/cohere`, and `/<framework>/cohere`): Cohere bodies
 * in, Cohere answers, streams and `{ message }` errors out, whatever provider served the model.
 */
@ApiTags('Provider formats')
@Controller(formatPaths('cohere'))
@VirtualKeyAuth(INFERENCE_CALLERS)
@NativeErrors(renderCohereError)
export class CohereFormatController {
  constructor(
    private readonly pipeline: InferencePipeline,
    private readonly listing: ModelListingService,
  ) {}

  @Get('v1/models')
  @ApiOperation({
    operationId: 'cohereFormatListModels',
    summary: "Models of every configured provider (Cohere's bare, others `<provider>/<model>`), paged",
  })
  @ApiQuery({ name: 'page_size', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 20 } })
  @ApiQuery({ name: 'page_token', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'endpoint', required: false, schema: { type: 'string' }, description: 'Only models serving it' })
  @ApiOkResponse({ description: '{ models: [{ name, endpoints, finetuned, context_length? }], next_page_token? }' })
  @ApiErrorResponses(400, 401, 403)
  async listModels(@Req() request: FastifyRequest): Promise<{ models: CohereModel[]; next_page_token?: string }> {
    return cohereModelPage(await this.listing.models(), (request.query ?? {}) as Record<string, unknown>);
  }

  @Post('v2/chat')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cohere v2 chat (a bare model is `cohere/<model>`)' })
  @ApiBody({ schema: CHAT_BODY })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'A Cohere chat answer, or its stream events ending with message-end' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  chat(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve(cohereChat, request, reply);
  }

  @Post('v2/embed')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cohere v2 embed (float embeddings)' })
  @ApiBody({ schema: EMBED_BODY })
  @ApiOkResponse({ description: '{ id, embeddings: { float }, texts, meta }' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  embed(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve(cohereEmbed, request, reply);
  }

  @Post('v2/rerank')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cohere v2 rerank' })
  @ApiBody({ schema: RERANK_BODY })
  @ApiOkResponse({ description: '{ id, results: [{ index, relevance_score }], meta }' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  rerank(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve(cohereRerank, request, reply);
  }

  private serve(operation: NativeOperation, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.pipeline.run({ operation, params: {} }, request, reply);
  }
}
