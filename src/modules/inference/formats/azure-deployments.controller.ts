import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INFERENCE_CALLERS } from '../v1/inference-callers.js';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { InferencePipeline } from '../v1/inference-pipeline.js';
import { INFERENCE_BODY_SCHEMAS } from '../v1/inference-schemas.js';
import { formatPaths } from './format-routes.js';
import type { NativeOperation } from './native-format.js';
import { openAiOperation } from '../providers/openai/format/openai-format.js';

/** A bare deployment is a model of the gateway's `azure` provider (its keys' `deployments` map it upstream). */
const fromDeployment = (kind: 'chat' | 'completions' | 'embeddings'): NativeOperation =>
  openAiOperation(kind, { modelParam: 'deployment', format: 'azure' });

const OPERATIONS = {
  chat: fromDeployment('chat'),
  completions: fromDeployment('completions'),
  embeddings: fromDeployment('embeddings'),
};

/**
 * Azure OpenAI's data-plane paths, for the `openai` SDK's `AzureOpenAI` client with `endpoint: <gateway>/openai`:
 * `POST /openai/openai/deployments/{deployment}/chat/completions|completions|embeddings?api-version=…` (the
 * api-version is accepted and not needed). The deployment names the model: `openai%2Fgpt-4o` (URL-encoded, or
 * unencoded as two path segments) is `openai/gpt-4o`, a bare `gpt-4o` is `azure/gpt-4o`. A deployment the gateway cannot route answers Azure's 404
 * `deployment_not_found`. Everything else is /v1.
 */
@ApiTags('Provider formats')
@Controller(formatPaths('openai/openai/deployments'))
@VirtualKeyAuth(INFERENCE_CALLERS)
export class AzureDeploymentsController {
  constructor(private readonly pipeline: InferencePipeline) {}

  @Post([':deployment/chat/completions', ':provider/:deployment/chat/completions'])
  @HttpCode(200)
  @ApiOperation({ summary: 'Azure OpenAI chat completion on a deployment (the deployment is the model)' })
  @ApiParam({ name: 'deployment', description: '`<provider>/<model>` URL-encoded, or a bare azure deployment' })
  @ApiQuery({ name: 'api-version', required: false, description: 'Accepted and ignored' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.chat })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'chat.completion, or chat.completion.chunk events ending with data: [DONE]' })
  @ApiErrorResponses(401, 403, 404, 429, 502, 504)
  chat(@Param('deployment') _deployment: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.serve('chat', request, reply);
  }

  @Post([':deployment/completions', ':provider/:deployment/completions'])
  @HttpCode(200)
  @ApiOperation({ summary: 'Azure OpenAI text completion on a deployment' })
  @ApiParam({ name: 'deployment', description: '`<provider>/<model>` URL-encoded, or a bare azure deployment' })
  @ApiQuery({ name: 'api-version', required: false, description: 'Accepted and ignored' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.completions })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'text_completion, or its chunk events ending with data: [DONE]' })
  @ApiErrorResponses(401, 403, 404, 429, 502, 504)
  completions(@Param('deployment') _deployment: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.serve('completions', request, reply);
  }

  @Post([':deployment/embeddings', ':provider/:deployment/embeddings'])
  @HttpCode(200)
  @ApiOperation({ summary: 'Azure OpenAI embeddings on a deployment' })
  @ApiParam({ name: 'deployment', description: '`<provider>/<model>` URL-encoded, or a bare azure deployment' })
  @ApiQuery({ name: 'api-version', required: false, description: 'Accepted and ignored' })
  @ApiBody({ schema: INFERENCE_BODY_SCHEMAS.embeddings })
  @ApiOkResponse({ description: 'A list of embeddings' })
  @ApiErrorResponses(401, 403, 404, 429, 502, 504)
  embeddings(@Param('deployment') _deployment: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.serve('embeddings', request, reply);
  }

  private async serve(kind: keyof typeof OPERATIONS, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { provider, deployment = '' } = request.params as { provider?: string; deployment?: string };
    // `/deployments/openai/gpt-4o/…` (the SDK does not encode the deployment) is `openai%2Fgpt-4o`.
    const params = { deployment: provider === undefined ? deployment : `${provider}/${deployment}` };
    try {
      await this.pipeline.run({ operation: OPERATIONS[kind], params }, request, reply);
    } catch (err) {
      throw unknownDeployment(err, params.deployment);
    }
  }
}

/** A deployment the gateway cannot route (no provider has it, or none is configured for it) is Azure's 404. */
function unknownDeployment(err: unknown, deployment: string): unknown {
  if (!(err instanceof GatewayException) || err.status !== 400 || err.param !== 'model') return err;
  if (err.reason !== 'caller_model_unknown' && err.reason !== 'caller_model_not_available') return err;
  return new GatewayException(
    404,
    'deployment_not_found',
    `The API deployment '${deployment}' does not exist: ${err.message}`,
    { param: 'deployment', reason: err.reason, extraFields: err.extraFields },
  );
}
