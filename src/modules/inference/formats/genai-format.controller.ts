import { GOOGLE_API_KEY_HEADER, GOOGLE_API_KEY_QUERY } from '../../../core/auth/credential-headers.js';
import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { NativeErrors } from '../../../core/errors/error-context.js';
import { ModelListingService } from '../catalog/model-listing.service.js';
import { INFERENCE_CALLERS } from '../v1/inference-callers.js';
import { InferencePipeline } from '../v1/inference-pipeline.js';
import { findModel } from './format-model-list.js';
import { formatPaths } from './format-routes.js';
import { renderGenaiError } from '../providers/google/format/genai-error.js';
import { GENAI_ACTIONS, genaiOperation, parseModelAction } from '../providers/google/format/genai-format.js';
import { genaiModel, genaiModelPage, type GenaiModel } from '../providers/google/format/genai-model-list.js';

type Query = Record<string, string | undefined>;

/**
 * Gemini API paths for `@google/genai` (and plain HTTP) pointed at `<gateway>/genai` or `<gateway>/<framework>/genai`:
 * `v1beta/models/{model}:{action}` (and `v1/…`, which the SDK may use). The model may hold a `/` (raw or `%2F`), so the route is a wildcard and the
 * `:action` suffix is parsed here. The virtual key comes as `x-goog-api-key` (the guard reads it) or, as Google
 * allows, as `?key=`, which only these routes accept.
 */
@ApiTags('Provider formats')
@Controller(formatPaths('genai'))
@VirtualKeyAuth({ ...INFERENCE_CALLERS, queryKey: { param: GOOGLE_API_KEY_QUERY, header: GOOGLE_API_KEY_HEADER } })
@NativeErrors(renderGenaiError)
export class GenaiFormatController {
  constructor(
    private readonly pipeline: InferencePipeline,
    private readonly listing: ModelListingService,
  ) {}

  @Get(['v1beta/models', 'v1/models'])
  @ApiOperation({
    operationId: 'genaiListModels',
    summary: "Models of every configured provider (Gemini's `models/<id>`, others `models/<provider>/<model>`), paged",
  })
  @ApiQuery({ name: 'pageSize', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 } })
  @ApiQuery({ name: 'pageToken', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'key', required: false, description: 'The virtual key, when not sent as x-goog-api-key' })
  @ApiOkResponse({ description: '{ models: [{ name, displayName, supportedGenerationMethods, … }], nextPageToken? }' })
  @ApiErrorResponses(400, 401, 403)
  async listModels(@Req() request: FastifyRequest): Promise<{ models: GenaiModel[]; nextPageToken?: string }> {
    return genaiModelPage(await this.listing.models(), (request.query ?? {}) as Query);
  }

  /** GET and POST are separate route tables: this wildcard never takes a `:generateContent` POST. */
  @Get(['v1beta/models/*', 'v1/models/*'])
  @ApiOperation({ operationId: 'genaiGetModel', summary: 'One model, or NOT_FOUND' })
  @ApiQuery({ name: 'key', required: false, description: 'The virtual key, when not sent as x-goog-api-key' })
  @ApiOkResponse({
    description: '{ name, displayName, supportedGenerationMethods, inputTokenLimit?, outputTokenLimit? }',
  })
  @ApiErrorResponses(401, 403, 404)
  async getModel(@Req() request: FastifyRequest): Promise<GenaiModel> {
    const id = (request.params as Query)['*'] ?? '';
    return genaiModel(findModel(await this.listing.models(), id.replace(/^models\//, ''), 'genai', 'path'));
  }

  @Post(['v1beta/models/*', 'v1/models/*'])
  @HttpCode(200)
  @ApiOperation({
    operationId: 'genaiModelAction',
    summary: `Gemini API: models/{model}:{${GENAI_ACTIONS.join('|')}} (a bare model is gemini/<model>)`,
  })
  @ApiQuery({ name: 'alt', required: false, description: '`sse` streams SSE events instead of a JSON array' })
  @ApiQuery({ name: 'key', required: false, description: 'The virtual key, when not sent as x-goog-api-key' })
  @ApiBody({ schema: { type: 'object', description: 'GenerateContentRequest, EmbedContentRequest, …' } })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'GenerateContentResponse (or its events), embeddings or { totalTokens }' })
  @ApiErrorResponses(400, 401, 403, 404, 429, 502, 504)
  async modelAction(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { model, action } = parseModelAction((request.params as Query)['*'] ?? '');
    const query = (request.query ?? {}) as Query;
    const operation = genaiOperation(model, action, query.alt === 'sse');
    await this.pipeline.run({ operation, params: { model, action } }, request, reply);
  }
}
