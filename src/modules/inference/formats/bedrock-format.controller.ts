import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INFERENCE_CALLERS } from '../v1/inference-callers.js';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { NativeErrors } from '../../../core/errors/error-context.js';
import { AcceptsBody } from '../../../core/http/media-types.js';
import { InferencePipeline } from '../v1/inference-pipeline.js';
import { formatPaths } from './format-routes.js';
import { EVENT_STREAM_CONTENT_TYPE } from '../providers/bedrock/format/bedrock-event-stream.js';
import { BEDROCK_OPERATIONS, type BedrockOperationName } from '../providers/bedrock/format/bedrock-format.js';
import { renderBedrockError } from '../providers/bedrock/format/bedrock-errors.js';

const MODEL_ID = {
  name: 'modelId',
  description: 'A Bedrock model id, or `<provider>/<model>` URL-encoded (`openai%2Fgpt-4o`) for another provider',
};

/** A turn: its role and its content blocks (each block is one of the Converse or Messages block shapes). */
const MESSAGE = {
  type: 'object',
  required: ['role', 'content'],
  properties: {
    role: { type: 'string', enum: ['user', 'assistant'] },
    content: { type: 'array', items: { type: 'object' } },
  },
};

const CONVERSE_BODY = {
  type: 'object',
  required: ['messages'],
  properties: {
    messages: { type: 'array', items: MESSAGE },
    system: { type: 'array', items: { type: 'object' } },
    inferenceConfig: { type: 'object' },
    toolConfig: { type: 'object' },
    additionalModelRequestFields: { type: 'object' },
  },
};

const CLAUDE_BODY = {
  type: 'object',
  required: ['anthropic_version', 'max_tokens', 'messages'],
  properties: {
    anthropic_version: { type: 'string', example: 'bedrock-2023-05-31' },
    max_tokens: { type: 'integer' },
    messages: { type: 'array', items: MESSAGE },
  },
};

/**
 * Bedrock Runtime's inference paths (`/bedrock/model/{modelId}/…` and each framework's `/bedrock`), for the AWS SDK
 * with the virtual key as its bearer token: Converse and InvokeModel (Claude bodies), unary and streamed as binary
 * event-stream frames, errors as Bedrock exceptions.
 */
@ApiTags('Provider formats')
@Controller(formatPaths('bedrock'))
@VirtualKeyAuth(INFERENCE_CALLERS)
@NativeErrors(renderBedrockError)
export class BedrockFormatController {
  constructor(private readonly pipeline: InferencePipeline) {}

  @Post('model/:modelId/converse')
  @HttpCode(200)
  @ApiOperation({ summary: 'Bedrock Converse' })
  @ApiParam(MODEL_ID)
  @ApiBody({ schema: CONVERSE_BODY })
  @ApiOkResponse({ description: 'The Converse answer: output.message, stopReason, usage, metrics' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  converse(@Param('modelId') modelId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.serve('converse', modelId, request, reply);
  }

  @Post('model/:modelId/converse-stream')
  @HttpCode(200)
  @ApiOperation({ summary: 'Bedrock ConverseStream' })
  @ApiParam(MODEL_ID)
  @ApiBody({ schema: CONVERSE_BODY })
  @ApiProduces(EVENT_STREAM_CONTENT_TYPE)
  @ApiOkResponse({ description: 'Event-stream frames: messageStart, contentBlock*, messageStop, metadata' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  converseStream(@Param('modelId') modelId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.serve('converse-stream', modelId, request, reply);
  }

  @Post('model/:modelId/invoke')
  @HttpCode(200)
  @AcceptsBody('application/json', 'application/octet-stream')
  @ApiOperation({ summary: 'Bedrock InvokeModel (Anthropic Claude body)' })
  @ApiParam(MODEL_ID)
  @ApiBody({ schema: CLAUDE_BODY })
  @ApiOkResponse({ description: 'The Anthropic Messages answer' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  invoke(@Param('modelId') modelId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.serve('invoke', modelId, request, reply);
  }

  @Post('model/:modelId/invoke-with-response-stream')
  @HttpCode(200)
  @AcceptsBody('application/json', 'application/octet-stream')
  @ApiOperation({ summary: 'Bedrock InvokeModelWithResponseStream (Anthropic Claude body)' })
  @ApiParam(MODEL_ID)
  @ApiBody({ schema: CLAUDE_BODY })
  @ApiProduces(EVENT_STREAM_CONTENT_TYPE)
  @ApiOkResponse({ description: 'Event-stream `chunk` frames, each an Anthropic stream event in base64' })
  @ApiErrorResponses(400, 401, 403, 429, 502, 504)
  invokeStream(@Param('modelId') modelId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.serve('invoke-with-response-stream', modelId, request, reply);
  }

  private serve(
    name: BedrockOperationName,
    modelId: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    return this.pipeline.run({ operation: BEDROCK_OPERATIONS[name], params: { modelId } }, request, reply);
  }
}
