import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { NativeErrors } from '../../../core/errors/error-context.js';
import { ModelListingService } from '../catalog/model-listing.service.js';
import { INFERENCE_CALLERS } from '../v1/inference-callers.js';
import { InferencePipeline } from '../v1/inference-pipeline.js';
import { findModel, wildcardOf } from './format-model-list.js';
import { formatPaths } from './format-routes.js';
import type { NativeOperation } from './native-format.js';
import {
  ANTHROPIC_COUNT_TOKENS,
  ANTHROPIC_FORMAT,
  ANTHROPIC_MESSAGES,
} from '../providers/anthropic/format/anthropic-format.js';
import {
  anthropicModelInfo,
  anthropicModelPage,
  type AnthropicModelInfo,
  type AnthropicModelPage,
} from '../providers/anthropic/format/anthropic-model-list.js';

/** The request body as Anthropic documents it (validated by the conversion, which names the native field). */
const MESSAGES_SCHEMA = {
  type: 'object',
  required: ['model', 'max_tokens', 'messages'],
  properties: {
    model: { type: 'string', description: "A bare model is Anthropic's; `<provider>/<model>` names another provider" },
    max_tokens: { type: 'integer', minimum: 1 },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['role', 'content'],
        properties: {
          role: { type: 'string', enum: ['user', 'assistant'] },
          content: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }] },
        },
      },
    },
    system: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }] },
    tools: { type: 'array', items: { type: 'object' } },
    tool_choice: { type: 'object' },
    thinking: { type: 'object' },
    stop_sequences: { type: 'array', items: { type: 'string' } },
    temperature: { type: 'number' },
    top_p: { type: 'number' },
    top_k: { type: 'number' },
    metadata: { type: 'object' },
    stream: { type: 'boolean' },
  },
};

/**
 * Anthropic's Messages API for Anthropic SDKs (and the coding agents built on them) pointed at the gateway:
 * `${gateway}/anthropic` (also under each framework prefix). Any provider serves it; answers, events and errors come
 * back in Anthropic's shapes.
 */
@ApiTags('Provider formats')
@Controller(formatPaths('anthropic'))
@VirtualKeyAuth(INFERENCE_CALLERS)
@NativeErrors((response) => ANTHROPIC_FORMAT.renderError(response))
export class AnthropicFormatController {
  constructor(
    private readonly pipeline: InferencePipeline,
    private readonly listing: ModelListingService,
  ) {}

  @Get('v1/models')
  @ApiOperation({
    operationId: 'anthropicFormatListModels',
    summary: "Models of every configured provider (Anthropic's bare, others `<provider>/<model>`), paged",
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 20 } })
  @ApiQuery({ name: 'after_id', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'before_id', required: false, schema: { type: 'string' } })
  @ApiOkResponse({
    description: '{ data: [{ type: "model", id, display_name, created_at }], has_more, first_id, last_id }',
  })
  @ApiErrorResponses(400, 401, 403)
  async listModels(@Req() request: FastifyRequest): Promise<AnthropicModelPage> {
    return anthropicModelPage(await this.listing.models(), (request.query ?? {}) as Record<string, unknown>);
  }

  @Get('v1/models/*')
  @ApiOperation({ operationId: 'anthropicFormatGetModel', summary: 'One model, or not_found_error' })
  @ApiParam({ name: '*', description: 'The model id as the list shows it', schema: { type: 'string' } })
  @ApiOkResponse({ description: '{ type: "model", id, display_name, created_at }' })
  @ApiErrorResponses(401, 403, 404)
  async getModel(@Req() request: FastifyRequest): Promise<AnthropicModelInfo> {
    return anthropicModelInfo(findModel(await this.listing.models(), wildcardOf(request), 'anthropic', 'path'));
  }

  @Post('v1/messages')
  @HttpCode(200)
  @ApiOperation({ summary: 'Anthropic Messages (a bare model is `anthropic/<model>`)' })
  @ApiBody({ schema: MESSAGES_SCHEMA })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'A message, or message_start … message_stop events' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  messages(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve(ANTHROPIC_MESSAGES, request, reply);
  }

  @Post('v1/messages/count_tokens')
  @HttpCode(200)
  @ApiOperation({ summary: 'Anthropic input token count' })
  @ApiBody({ schema: { ...MESSAGES_SCHEMA, required: ['model', 'messages'] } })
  @ApiOkResponse({ description: '{ input_tokens }' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  countTokens(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve(ANTHROPIC_COUNT_TOKENS, request, reply);
  }

  private serve(operation: NativeOperation, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.pipeline.run({ operation, params: {} }, request, reply);
  }
}
