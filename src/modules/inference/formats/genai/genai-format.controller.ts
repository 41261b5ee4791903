import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataPlaneAuthenticator } from '../../../../core/auth/data-plane-authenticator.js';
import { VirtualKeyAuth } from '../../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../../core/errors/api-errors.decorator.js';
import { NativeErrors } from '../../../../core/errors/error-context.js';
import { ModelListingService } from '../../catalog/model-listing.service.js';
import { InferenceAccess } from '../../v1/inference-access.js';
import { InferencePipeline } from '../../v1/inference-pipeline.js';
import { findModel } from '../format-model-list.js';
import { formatPaths } from '../format-routes.js';
import { renderGenaiError } from './genai-error.js';
import { GENAI_ACTIONS, genaiOperation, parseModelAction } from './genai-format.js';
import { genaiModel, genaiModelPage, type GenaiModel } from './genai-model-list.js';

type Query = Record<string, string | undefined>;

/**
 * Gemini API paths for `@google/genai` (and plain HTTP) pointed at `<gateway>/genai` or `<gateway>/<framework>/genai`:
 * `v1beta/models/{model}:{action}` (and `v1/…`, which the SDK may use). The model may hold a `/` (raw or `%2F`), so the route is a wildcard and the
 * `:action` suffix is parsed here. The virtual key comes as `x-goog-api-key` (the guard reads it) or, as Google
 * allows, as `?key=`, which only these routes accept.
 */
@ApiTags('Provider formats')
@Controller(formatPaths('genai'))
@VirtualKeyAuth({ optional: true })
@NativeErrors(renderGenaiError)
export class GenaiFormatController {
  constructor(
    private readonly pipeline: InferencePipeline,
    private readonly dataPlane: DataPlaneAuthenticator,
    private readonly access: InferenceAccess,
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
    const query = (request.query ?? {}) as Query;
    await this.authenticateQueryKey(request, query);
    this.access.directKeyOf(request);
    return genaiModelPage(await this.listing.models(), query);
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
    await this.authenticateQueryKey(request, (request.query ?? {}) as Query);
    this.access.directKeyOf(request);
    const id = (request.params as Query)['*'] ?? '';
    return genaiModel(findModel(await this.listing.models(), id.replace(/^models\//, ''), 'gemini', 'path'));
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
    await this.authenticateQueryKey(request, query);
    const operation = genaiOperation(model, action, query.alt === 'sse');
    await this.pipeline.run({ operation, params: { model, action } }, request, reply);
  }

  /**
   * `?key=`: verified like the header, then taken out of the query so no later reader (routing rules, logs) sees
   * it. A key in a header wins.
   */
  private async authenticateQueryKey(request: FastifyRequest, query: Query): Promise<void> {
    const key = query.key;
    if (key === undefined) return;
    delete query.key;
    if (request.principal || request.headers['x-goog-api-key'] !== undefined) return;
    request.headers['x-goog-api-key'] = key;
    const principal = await this.dataPlane.authenticate(request, true);
    if (principal) request.principal = principal;
  }
}
