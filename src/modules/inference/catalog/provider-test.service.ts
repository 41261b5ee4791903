import { Injectable } from '@nestjs/common';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { Cancellation } from '../../../core/outbound/cancellation.js';
import { adapterFor } from '../providers/registry.js';
import type { Json } from '../providers/shared/provider-adapter.js';
import { providerTarget } from '../providers/shared/provider-target.js';
import type { InferenceCall } from '../routing/inference-call.js';
import { eligibleKeys, keyAllows, pickKey, resolveAlias } from '../routing/key-selector.js';
import type { ResolvedModel } from '../routing/model-resolver.js';
import { AttemptFailure, UpstreamAttempts } from '../routing/upstream-attempt.js';
import type { RoutingInfo } from '../routing/routing-info.js';
import type { ProviderTestRequestDto, ProviderTestResultDto } from './dto/provider-test.dto.js';
import { ProviderCatalog } from './provider-catalog.service.js';
import type { ConfiguredKey, ConfiguredProvider } from './provider-snapshot.js';
import { providerNotFound } from './providers.service.js';
import { isPending } from '../../../core/async/maybe-promise.js';

const DEFAULT_PROMPT = 'Say hello in one short sentence.';
/** The answer is capped: a test costs a few tokens. */
const MAX_ANSWER_TOKENS = 64;

/**
 * `POST /api/providers/{provider}/test`: one small chat completion sent straight to the provider with one key, no
 * retry, fallback, routing rule, governance or log row; the answer or the provider's error is the result. A refusal by
 * the provider is a result (200, `status: failed`), not a failure of this call: the call fails only on what the caller
 * sent (a key the provider does not have, a model no key serves).
 */
@Injectable()
export class ProviderTestService {
  constructor(
    private readonly catalog: ProviderCatalog,
    private readonly attempts: UpstreamAttempts,
  ) {}

  async test(provider: ProviderId, dto: ProviderTestRequestDto): Promise<ProviderTestResultDto> {
    const current = this.catalog.snapshot();
    const config = (isPending(current) ? await current : current).get(provider);
    if (!config) throw providerNotFound(provider);
    const adapter = adapterFor(provider);
    if (!adapter?.kinds.has('chat')) {
      throw new GatewayException(400, 'unsupported_operation', `Provider ${provider} does not serve chat requests`, {
        param: 'model',
      });
    }
    const key = this.keyFor(config, dto);
    const { upstreamModel } = resolveAlias(key, dto.model);
    const target = providerTarget(provider, config, adapter, key.credentials, upstreamModel);
    // Azure has no base: each key carries its endpoint.
    if (!target.baseUrl && provider !== 'azure') {
      throw GatewayException.validation('base_url', `base_url is required for ${provider} (it has no default)`);
    }
    const body: Json = {
      model: `${provider}/${dto.model}`,
      messages: [{ role: 'user', content: dto.prompt ?? DEFAULT_PROMPT }],
      max_tokens: MAX_ANSWER_TOKENS,
    };
    const call: InferenceCall = {
      kind: 'chat',
      body,
      stream: false,
      signal: new Cancellation(),
      progress: { retries: 0, upstreamLatencyMs: 0, fallbackIndex: 0 },
    };
    const resolved: ResolvedModel = {
      ref: { provider, model: dto.model, requested: `${provider}/${dto.model}` },
      provider,
      config,
      adapter,
      upstreamKind: 'chat',
      bridged: false,
      keys: [key],
      network: config.network,
      source: body,
    };
    const info: RoutingInfo = { provider, model: upstreamModel, key: key.name };
    const started = performance.now();
    const outcome = key.unusable
      ? new AttemptFailure(
          new GatewayException(502, 'secret_unresolved', `Key ${key.name} cannot be used: ${key.unusable}`, {
            reason: 'gateway_internal',
          }),
          0,
        )
      : await this.attempts.attempt(call, resolved, target, info, call.progress);
    const result = {
      provider,
      model: upstreamModel,
      key_id: key.id,
      key_name: key.name,
      latency_ms: Math.round(performance.now() - started),
    };
    if (outcome instanceof AttemptFailure) {
      return { status: 'failed', ...result, error: toErrorResponse(outcome.error).body };
    }
    const usage = outcome.unary?.usage;
    return {
      status: 'success',
      ...result,
      answer: answerText(outcome.unary?.body),
      ...(usage
        ? {
            usage: {
              prompt_tokens: usage.prompt_tokens,
              completion_tokens: usage.completion_tokens,
              total_tokens: usage.total_tokens,
            },
          }
        : {}),
    };
  }

  /** The key named by `key_id` (disabled ones too: testing a key before enabling it), else one picked by weight. */
  private keyFor(config: ConfiguredProvider, dto: ProviderTestRequestDto): ConfiguredKey {
    if (dto.key_id !== undefined) {
      const key = config.keys.find((k) => k.id === dto.key_id);
      if (!key) throw GatewayException.notFound('provider_key', `Provider ${config.id} has no key ${dto.key_id}`);
      if (!keyAllows(key, dto.model)) {
        throw GatewayException.validation('model', `Key ${key.name} of ${config.id} does not serve '${dto.model}'`);
      }
      return key;
    }
    const key = pickKey(eligibleKeys(config, dto.model), new Set());
    if (!key) throw GatewayException.validation('model', `No enabled key of ${config.id} serves '${dto.model}'`);
    return key;
  }
}

/** The text of a chat completion's first choice (parts joined), or '' when it has none. */
function answerText(body: Json | undefined): string {
  const choices = body?.choices;
  const message = Array.isArray(choices)
    ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message
    : undefined;
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
      .join('');
  }
  return '';
}
