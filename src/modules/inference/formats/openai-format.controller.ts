import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { AcceptsBody } from '../../../core/http/media-types.js';
import { ModelListingService } from '../catalog/model-listing.service.js';
import { parseMultipartForm } from '../media/multipart-form.js';
import type { InferenceKind } from '../providers/shared/provider-adapter.js';
import { INFERENCE_CALLERS } from '../v1/inference-callers.js';
import { InferencePipeline } from '../v1/inference-pipeline.js';
import { INFERENCE_BODY_SCHEMAS } from '../v1/inference-schemas.js';
import { FRAMEWORK_PREFIXES } from './format-routes.js';
import type { NativeOperation } from './native-format.js';
import { openAiOperation } from '../providers/openai/format/openai-format.js';
import { wildcardOf } from './format-model-list.js';
import {
  findOpenAiModel,
  openAiModelList,
  type OpenAiModel,
  type OpenAiModelList,
} from '../providers/openai/format/openai-model-list.js';

type OpenAiKind = Exclude<InferenceKind, 'rerank' | 'ocr'>;

const OPERATIONS: Record<OpenAiKind, NativeOperation> = {
  chat: openAiOperation('chat'),
  completions: openAiOperation('completions'),
  responses: openAiOperation('responses'),
  embeddings: openAiOperation('embeddings'),
  count_tokens: openAiOperation('count_tokens'),
  speech: openAiOperation('speech'),
  transcription: openAiOperation('transcription'),
  image_generation: openAiOperation('image_generation'),
  image_edit: openAiOperation('image_edit'),
  image_variation: openAiOperation('image_variation'),
};

/**
 * OpenAI's own paths for OpenAI SDKs pointed at the gateway (`/openai/v1`, also without `/v1`, and each framework's
 * `/v1`): a model without a provider is OpenAI's. Everything else is /v1.
 */
@ApiTags('Provider formats')
@Controller(['openai/v1', 'openai', ...FRAMEWORK_PREFIXES.map((framework) => `${framework}/v1`)])
@VirtualKeyAuth(INFERENCE_CALLERS)
export class OpenAiFormatController {
  constructor(
    private readonly pipeline: InferencePipeline,
    private readonly listing: ModelListingService,
  ) {}

  @Get('models')
  @ApiOperation({
    operationId: 'openaiFormatListModels',
    summary: 'Models of every configured provider, as `<provider>/<model>` ids (what /v1/models lists)',
  })
  @ApiOkResponse({ description: '{ object: "list", data: [{ id, object: "model", created, owned_by }] }' })
  @ApiErrorResponses(401, 403)
  async models(): Promise<OpenAiModelList> {
    return openAiModelList(await this.listing.models());
  }

  @Get('models/*')
  @ApiOperation({
    operationId: 'openaiFormatGetModel',
    summary: "One model (a bare id is OpenAI's; `<provider>/<model>`, URL-encoded or not, names another provider's)",
  })
  @ApiParam({ name: '*', description: 'The model id as the list shows it', schema: { type: 'string' } })
  @ApiOkResponse({ description: '{ id, object: "model", created, owned_by }' })
  @ApiErrorResponses(401, 403, 404)
  async model(@Req() request: FastifyRequest): Promise<OpenAiModel> {
    return findOpenAiModel(await this.listing.models(), wildcardOf(request), 'openai');
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

  @Post('audio/speech')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAI text to speech: the audio bytes, with their content-type' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.speech })
  @ApiProduces('audio/mpeg', 'audio/wav', 'audio/flac', 'audio/aac', 'audio/opus', 'audio/pcm')
  @ApiOkResponse({ description: 'Audio bytes' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  speech(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve('speech', request, reply);
  }

  @Post('audio/transcriptions')
  @HttpCode(200)
  @AcceptsBody('multipart/form-data')
  @ApiOperation({ summary: 'OpenAI speech to text (multipart upload)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.transcription })
  @ApiProduces('application/json', 'text/plain')
  @ApiOkResponse({ description: '{ text, ... }, or the transcript as text, SRT or VTT (response_format)' })
  @ApiErrorResponses(400, 401, 403, 415, 429, 502, 504)
  transcription(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serveMultipart('transcription', request, reply);
  }

  @Post('images/generations')
  @HttpCode(200)
  @ApiOperation({ summary: 'OpenAI image generation' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.image_generation })
  @ApiOkResponse({ description: '{ created, data: [{ url | b64_json, revised_prompt }], usage }' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  imageGeneration(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serve('image_generation', request, reply);
  }

  @Post('images/edits')
  @HttpCode(200)
  @AcceptsBody('multipart/form-data')
  @ApiOperation({ summary: 'OpenAI image edit (multipart upload)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.image_edit })
  @ApiOkResponse({ description: '{ created, data: [{ url | b64_json }], usage }' })
  @ApiErrorResponses(400, 401, 403, 415, 429, 502, 504)
  imageEdit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serveMultipart('image_edit', request, reply);
  }

  @Post('images/variations')
  @HttpCode(200)
  @AcceptsBody('multipart/form-data')
  @ApiOperation({ summary: 'OpenAI image variation (multipart upload)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.image_variation })
  @ApiOkResponse({ description: '{ created, data: [{ url | b64_json }] }' })
  @ApiErrorResponses(400, 401, 403, 415, 429, 502, 504)
  imageVariation(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.serveMultipart('image_variation', request, reply);
  }

  /** A multipart body (a Buffer, as the media-type gate hands it) becomes the form's fields and files first. */
  private async serveMultipart(kind: OpenAiKind, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (Buffer.isBuffer(request.body)) {
      request.body = await parseMultipartForm(request.body, String(request.headers['content-type']));
    }
    return this.serve(kind, request, reply);
  }

  private serve(kind: OpenAiKind, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.pipeline.run({ operation: OPERATIONS[kind], params: {} }, request, reply);
  }
}
