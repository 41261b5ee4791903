import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../provider-ids.js';
import { OPENAI_PATHS, type OpenAiCompatibleProfile } from './openai-compatible.table.js';
import { MEDIA_KINDS } from '../../media/media-kinds.js';
import { openAiMediaCall } from './openai-media.js';
import { openAiRequestBody, upstreamHeaders } from './openai-request.js';
import { unsupportedKind } from '../shared/native-adapter-parts.js';
import { answeredModelOf } from './openai-response.js';
import type { ChatStreamOptions } from './openai-stream.js';
import { OpenAiWireAdapter } from './openai-wire.adapter.js';
import type { InferenceKind, Json, ParsedResponse, ProviderTarget, UpstreamCall } from '../shared/provider-adapter.js';

/**
 * The OpenAI wire format, one instance per provider id of `OPENAI_COMPATIBLE_PROFILES` (kinds, base URL and quirks
 * differ per provider; bodies, streams, errors and usage are shared with the Azure adapter).
 */
export class OpenAiCompatibleAdapter extends OpenAiWireAdapter {
  readonly kinds: ReadonlySet<InferenceKind>;

  constructor(
    protected readonly provider: ProviderId,
    protected readonly profile: OpenAiCompatibleProfile,
  ) {
    super();
    this.kinds = new Set(profile.kinds);
  }

  defaultBaseUrl(): string | undefined {
    return this.profile.baseUrl;
  }

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    if (!this.kinds.has(kind)) throw unsupportedKind(this.provider, kind);
    const path = this.profile.paths?.[kind] ?? OPENAI_PATHS[kind];
    if (MEDIA_KINDS.has(kind)) {
      const headers = upstreamHeaders(target, this.profile.auth, { body: true, stream: false });
      return { method: 'POST', url: this.base(target) + path, ...openAiMediaCall(kind, body, target.model, headers) };
    }
    const streams = stream && (kind === 'chat' || kind === 'completions' || kind === 'responses');
    const prepared = openAiRequestBody(kind, body, target.model, streams, {
      streamUsage: this.profile.streamUsage?.(target.model) ?? true,
    });
    this.profile.adjustBody?.(kind, prepared, target.model);
    return {
      method: 'POST',
      url: this.base(target) + path,
      headers: upstreamHeaders(target, this.profile.auth, { body: true, stream: streams }),
      body: JSON.stringify(prepared),
    };
  }

  override parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    const parsed = super.parseResponse(kind, body, target);
    if (this.profile.serverSideFallback && (kind === 'chat' || kind === 'completions')) {
      const answered = answeredModelOf(body, target.model);
      if (answered) parsed.answeredModel = answered;
    }
    return parsed;
  }

  protected override chatStreamOptions(): ChatStreamOptions {
    return { endsAfterFinish: this.profile.endsAfterFinish };
  }

  buildListModels(target: ProviderTarget): UpstreamCall {
    const base = this.base(target);
    const configured = target.baseUrl.replace(/\/+$/, '');
    return {
      method: 'GET',
      url: this.profile.listModelsUrl?.(configured) ?? `${base}/models`,
      headers: upstreamHeaders(target, this.profile.auth, { body: false, stream: false }),
    };
  }

  /** Where calls go; a self-hosted provider (or Databricks) configured without a `base_url` is the caller's 400. */
  protected base(target: ProviderTarget): string {
    const base = target.baseUrl.replace(/\/+$/, '');
    if (base === '') {
      throw GatewayException.validation('base_url', `base_url is required for ${this.provider} (it has no default)`);
    }
    const prefix = this.profile.requiredPrefix;
    return prefix && !base.endsWith(prefix) ? base + prefix : base;
  }
}
