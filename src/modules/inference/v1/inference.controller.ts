import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { sendRawJson } from '../../../core/http/raw-json.js';
import { Cancellation } from '../../../core/outbound/cancellation.js';
import { InferenceTracing } from '../../../core/tracing/inference-tracing.service.js';
import { PricingOverrides } from '../../governance/pricing-overrides/pricing-override-set.js';
import { ModelListingService } from '../catalog/model-listing.service.js';
import { RequestLogRecorder } from '../logs/request-log.recorder.js';
import { startInferenceTrace } from '../inference-tracing.js';
import type { InferenceKind } from '../providers/provider-adapter.js';
import type { InferenceCall } from '../routing/inference-call.js';
import { InferenceRouter } from '../routing/inference-router.service.js';
import { InferenceAccess } from './inference-access.js';
import { InferenceAgent, type InjectedTools } from './inference-agent.js';
import { validateInferenceBody } from './inference-request.js';
import { InferenceResponder } from './inference-responder.js';
import { INFERENCE_BODY_SCHEMAS } from './inference-schemas.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/**
 * The unified inference API: OpenAI wire shapes in and out, `model` as `<provider>/<model>`, optional `fallbacks`.
 * Authenticated by a virtual key (or a provider key passed through, when the config allows it).
 */
@ApiTags('Inference')
@Controller('v1')
@VirtualKeyAuth({ optional: true })
export class InferenceController {
  constructor(
    private readonly access: InferenceAccess,
    private readonly router: InferenceRouter,
    private readonly responder: InferenceResponder,
    private readonly listing: ModelListingService,
    private readonly logs: RequestLogRecorder,
    private readonly tracing: InferenceTracing,
    private readonly pricing: PricingOverrides,
    private readonly agent: InferenceAgent,
  ) {}

  @Get('models')
  @ApiOperation({
    operationId: 'listInferenceModels',
    summary: 'Models of every configured provider, as `<provider>/<model>` ids (OpenAI list shape)',
  })
  @ApiOkResponse({ description: '{ object: "list", data: [{ id, object: "model", created, owned_by }] }' })
  @ApiErrorResponses(401, 403)
  async models(@Req() request: FastifyRequest): Promise<{ object: 'list'; data: unknown[] }> {
    this.access.directKeyOf(request);
    const listed = await this.listing.list();
    return {
      object: 'list',
      data: listed.models.map((m) => ({
        id: m.id,
        object: 'model',
        created: m.created ?? 0,
        owned_by: m.owned_by ?? m.provider,
      })),
    };
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

  private async handle(kind: InferenceKind, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const started = performance.now();
    const abort = new Cancellation();
    // A client that goes away cancels the upstream call (and any retry wait).
    const onClose = () => {
      if (!reply.raw.writableFinished) abort.abort(new Error('client disconnected'));
    };
    reply.raw.once('close', onClose);
    let call: InferenceCall | undefined;
    const log = this.logs.begin(request, started, (request.body as { stream?: unknown } | null)?.stream === true);
    try {
      const directKey = this.access.directKeyOf(request);
      const { body, stream } = validateInferenceBody(kind, request.body);
      const keyId = header(request, 'x-gateway-api-key-id');
      const keyName = header(request, 'x-gateway-api-key');
      call = {
        kind,
        body,
        stream,
        pin: keyId || keyName ? { id: keyId, name: keyId ? undefined : keyName } : undefined,
        directKey,
        signal: abort,
        // Always present, undefined when logs are off: every call has the same shape.
        log,
        chain: log ? [] : undefined,
        virtualKey: request.principal?.virtualKey,
        headers: request.headers,
        query: request.query,
        progress: { retries: 0, upstreamLatencyMs: 0, fallbackIndex: 0 },
        trace: startInferenceTrace(this.tracing, kind, body, stream, request),
        pricing: undefined,
      };
      const pricing = this.pricing.snapshot();
      call.pricing = pricing instanceof Promise ? await pricing : pricing;
      let tools: InjectedTools | undefined;
      if (kind === 'chat' || kind === 'responses') {
        const injecting = this.agent.inject(call);
        tools = injecting instanceof Promise ? await injecting : injecting;
      }
      const result = await this.router.route(call);
      if (result.stream) {
        await this.responder.stream(call, result, request, reply, abort, started);
        return;
      }
      const { body: answer, headers } = tools?.agent
        ? await this.agent.run(call, result, tools, request, started, (round) => (call = round))
        : this.responder.unary(call, result, request, started);
      sendRawJson(reply, 200, JSON.stringify(answer), headers);
    } catch (err) {
      this.responder.failed(call, err, started);
      // An agent round that failed is logged as its own row (the earlier rounds were logged as served).
      const origin = call ? call.log : log;
      if (origin) this.logs.failed(call, origin, kind, request.body, err);
      throw err;
    }
  }
}
