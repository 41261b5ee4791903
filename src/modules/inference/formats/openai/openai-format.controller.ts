import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../../core/errors/api-errors.decorator.js';
import { ModelListingService } from '../../catalog/model-listing.service.js';
import { InferenceAccess } from '../../v1/inference-access.js';
import { InferencePipeline } from '../../v1/inference-pipeline.js';
import { INFERENCE_BODY_SCHEMAS } from '../../v1/inference-schemas.js';
import { FRAMEWORK_PREFIXES } from '../format-routes.js';
import type { NativeOperation } from '../native-format.js';
import { openAiOperation } from './openai-format.js';
import { openAiModelList, type OpenAiModelList } from './openai-model-list.js';

const OPERATIONS: Record<'chat' | 'completions' | 'responses' | 'embeddings' | 'count_tokens', NativeOperation> = {
  chat: openAiOperation('chat'),
  completions: openAiOperation('completions'),
  responses: openAiOperation('responses'),
  embeddings: openAiOperation('embeddings'),
  count_tokens: openAiOperation('count_tokens'),
};

/**
 * OpenAI's own paths for OpenAI SDKs pointed at the gateway (`/openai/v1`, also without `/v1`, and each framework's
 * `/v1`): a model without a provider is OpenAI's. Everything else is /v1.
 */
@ApiTags('Provider formats')
@Controller(['openai/v1', 'openai', ...FRAMEWORK_PREFIXES.map((framework) => `${framework}/v1`)])
@VirtualKeyAuth({ optional: true })
export class OpenAiFormatController {
  constructor(
    private readonly pipeline: InferencePipeline,
    private readonly access: InferenceAccess,
    private readonly listing: ModelListingService,
  ) {}

  @Get('models')
  @ApiOperation({
    operationId: 'openaiFormatListModels',
    summary: 'Models of every configured provider, as `<provider>/<model>` ids (what /v1/models lists)',
  })
  @ApiOkResponse({ description: '{ object: "list", data: [{ id, object: "model", created, owned_by }] }' })
  @ApiErrorResponses(401, 403)
  async models(@Req() request: FastifyRequest): Promise<OpenAiModelList> {
    this.access.directKeyOf(request);
    return openAiModelList(await this.listing.models());
  }

  @Post('chat/completions')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAI chat completion (a bare model is `openai/<model>`)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.chat })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'chat.completion, or chat.completion.chunk events ending with data: [DONE]' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  chat(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve('chat', request, reply);
  }

  @Post('completions')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAI text completion' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.completions })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'text_completion, or its chunk events ending with data: [DONE]' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  completions(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve('completions', request, reply);
  }

  @Post('responses')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAI Responses API' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.responses })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'A response object, or its typed events' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  responses(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve('responses', request, reply);
  }

  @Post('responses/input_tokens')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAI input token count of a Responses request' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.count_tokens })
  @ApiOkResponse({ description: '{ object: "response.input_tokens", input_tokens }' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  inputTokens(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve('count_tokens', request, reply);
  }

  @Post('embeddings')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAI embeddings' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.embeddings })
  @ApiOkResponse({ description: 'A list of embeddings' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  embeddings(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve('embeddings', request, reply);
  }

  private serve(kind: keyof typeof OPERATIONS, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.pipeline.run({ operation: OPERATIONS[kind], params: {} }, request, reply);
  }
}
