import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { AcceptsBody } from '../../../core/http/media-types.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { ModelListingService } from '../catalog/model-listing.service.js';
import { wildcardOf } from '../formats/format-model-list.js';
import {
  findOpenAiModel,
  openAiModelList,
  type OpenAiModel,
  type OpenAiModelList,
} from '../providers/openai/format/openai-model-list.js';
import { parseMultipartForm } from '../media/multipart-form.js';
import type { InferenceKind } from '../providers/shared/provider-adapter.js';
import { INFERENCE_CALLERS } from './inference-callers.js';
import { InferencePipeline } from './inference-pipeline.js';
import { INFERENCE_BODY_SCHEMAS } from './inference-schemas.js';

/**
 * The unified inference API: OpenAI wire shapes in and out, `model` as `<provider>/<model>`, optional `fallbacks`.
 * Authenticated by a virtual key (or a provider key passed through, when the config allows it).
 */
@ApiTags('Inference')
@Controller('v1')
@VirtualKeyAuth(INFERENCE_CALLERS)
export class InferenceController {
  constructor(
    private readonly listing: ModelListingService,
    private readonly pipeline: InferencePipeline,
  ) {}

  @Get('models')
  @ApiOperation({
    operationId: 'listInferenceModels',
    summary: 'Models of every configured provider, as `<provider>/<model>` ids (OpenAI list shape)',
  })
  @ApiOkResponse({ description: '{ object: "list", data: [{ id, object: "model", created, owned_by }] }' })
  @ApiErrorResponses(401, 403)
  async models(): Promise<OpenAiModelList> {
    return openAiModelList(await this.listing.models());
  }

  @Get('models/*')
  @ApiOperation({
    operationId: 'getInferenceModel',
    summary: 'One model by its `<provider>/<model>` id (URL-encoded or not), or a bare id one provider lists',
  })
  @ApiParam({ name: '*', description: 'The model id as the list shows it', schema: { type: 'string' } })
  @ApiOkResponse({ description: '{ id, object: "model", created, owned_by }' })
  @ApiErrorResponses(401, 403, 404)
  async model(@Req() request: FastifyRequest): Promise<OpenAiModel> {
    return findOpenAiModel(await this.listing.models(), wildcardOf(request));
  }

  @Post('chat/completions')
  @HttpCode(200)
  @ApiOperation({ operationId: 'createChatCompletion', summary: 'Chat completion (stream: Server-Sent Events)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.chat })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'chat.completion, or chat.completion.chunk events ending with data: [DONE]' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  chat(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('chat', request, reply);
  }

  @Post('completions')
  @HttpCode(200)
  @ApiOperation({ operationId: 'createCompletion', summary: 'Text completion (stream: Server-Sent Events)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.completions })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'text_completion, or its chunk events ending with data: [DONE]' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  completions(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('completions', request, reply);
  }

  @Post('responses')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createResponse',
    summary: 'Responses API (providers without it are served through chat completions and converted back)',
  })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.responses })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'A response object, or its typed events (response.created … response.completed)' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  responses(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('responses', request, reply);
  }

  @Post('responses/input_tokens')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'countResponseInputTokens',
    summary: 'Input tokens of a Responses request without running it (what /v1/count_tokens counts)',
  })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.count_tokens })
  @ApiOkResponse({ description: '{ object: "response.input_tokens", input_tokens }' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  responseInputTokens(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('count_tokens', request, reply);
  }

  @Post('embeddings')
  @HttpCode(200)
  @ApiOperation({ operationId: 'createEmbeddings', summary: 'Embeddings' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.embeddings })
  @ApiOkResponse({ description: 'A list of embeddings' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  embeddings(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('embeddings', request, reply);
  }

  @Post('rerank')
  @HttpCode(200)
  @ApiOperation({ operationId: 'createRerank', summary: 'Rerank documents against a query' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.rerank })
  @ApiOkResponse({ description: 'Results by relevance: index, relevance_score, document' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  rerank(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('rerank', request, reply);
  }

  @Post('count_tokens')
  @HttpCode(200)
  @ApiOperation({ operationId: 'countTokens', summary: 'Count the input tokens of a request without running it' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.count_tokens })
  @ApiOkResponse({ description: '{ object: "response.input_tokens", input_tokens }' })
  @ApiErrorResponses(401, 403, 429, 502, 504)
  countTokens(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('count_tokens', request, reply);
  }

  @Post('audio/speech')
  @HttpCode(200)
  @ApiOperation({ operationId: 'createSpeech', summary: 'Text to speech: the audio bytes, with their content-type' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.speech })
  @ApiProduces('audio/mpeg', 'audio/wav', 'audio/flac', 'audio/aac', 'audio/opus', 'audio/pcm', 'text/event-stream')
  @ApiOkResponse({ description: 'Audio bytes, or with stream_format sse the speech.audio.delta / .done events' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  speech(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('speech', request, reply);
  }

  @Post('audio/transcriptions')
  @HttpCode(200)
  @AcceptsBody('multipart/form-data')
  @ApiOperation({ operationId: 'createTranscription', summary: 'Speech to text (multipart upload)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.transcription })
  @ApiProduces('application/json', 'text/plain')
  @ApiOkResponse({ description: '{ text, ... }, or the transcript as text, SRT or VTT (response_format)' })
  @ApiErrorResponses(400, 401, 403, 415, 429, 502, 504)
  transcription(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handleMultipart('transcription', request, reply);
  }

  @Post('images/generations')
  @HttpCode(200)
  @ApiOperation({ operationId: 'createImage', summary: 'Image generation' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.image_generation })
  @ApiOkResponse({ description: '{ created, data: [{ url | b64_json, revised_prompt }], usage }' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  imageGeneration(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('image_generation', request, reply);
  }

  @Post('images/edits')
  @HttpCode(200)
  @AcceptsBody('multipart/form-data')
  @ApiOperation({ operationId: 'createImageEdit', summary: 'Image edit (multipart upload)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.image_edit })
  @ApiOkResponse({ description: '{ created, data: [{ url | b64_json }], usage }' })
  @ApiErrorResponses(400, 401, 403, 415, 429, 502, 504)
  imageEdit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handleMultipart('image_edit', request, reply);
  }

  @Post('images/variations')
  @HttpCode(200)
  @AcceptsBody('multipart/form-data')
  @ApiOperation({ operationId: 'createImageVariation', summary: 'Image variation (multipart upload)' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.image_variation })
  @ApiOkResponse({ description: '{ created, data: [{ url | b64_json }] }' })
  @ApiErrorResponses(400, 401, 403, 415, 429, 502, 504)
  imageVariation(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handleMultipart('image_variation', request, reply);
  }

  @Post('ocr')
  @HttpCode(200)
  @ApiOperation({ operationId: 'createOcr', summary: "Document OCR (Mistral's request and answer shape)" })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.ocr })
  @ApiOkResponse({ description: '{ pages: [{ index, markdown, images, dimensions }], model, usage_info }' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  ocr(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle('ocr', request, reply);
  }

  /** A multipart body (a Buffer, as the media-type gate hands it) becomes the canonical body first. */
  private async handleMultipart(kind: InferenceKind, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (Buffer.isBuffer(request.body)) {
      request.body = await parseMultipartForm(request.body, String(request.headers['content-type']));
    }
    return this.handle(kind, request, reply);
  }

  private handle(kind: InferenceKind, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.pipeline.run(kind, request, reply);
  }
}
