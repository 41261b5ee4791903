import { anthropicAdapter } from '../anthropic/anthropic.adapter.js';
import { signedCall } from './aws-sigv4.js';
import { OpenAiCompatibleAdapter } from '../openai/openai-compatible.adapter.js';
import type {
  AdapterIo,
  InferenceKind,
  Json,
  ListedModel,
  ParsedResponse,
  ProviderAdapter,
  ProviderError,
  ProviderTarget,
  StreamDecoder,
  UpstreamCall,
} from '../shared/provider-adapter.js';
import { isJsonObject, parseJson } from '../shared/wire-json.js';

const DEFAULT_REGION = 'us-east-1';
const SIGNING_SERVICE = 'bedrock-mantle';

export const mantleHost = (region: string) => `https://bedrock-mantle.${region}.api.aws`;

/** Claude models are served by the Anthropic Messages surface; every other model by the OpenAI-compatible one. */
const isClaude = (model: string) => /(^|[./])(anthropic\.)?claude/i.test(model);

/**
 * Amazon Bedrock's OpenAI-compatible endpoint ("Mantle"): `https://bedrock-mantle.{region}.api.aws`.
 *
 * - gpt, gemma and other open models: OpenAI chat completions at `{base}/v1/chat/completions` (delegated to the
 *   OpenAI-compatible adapter); Claude models: Anthropic Messages at `{base}/anthropic/v1/messages` (delegated to the
 *   Anthropic adapter).
 * - The region is the key's `bedrock_key_config.region` (default us-east-1) unless the provider has a `base_url`.
 * - Auth: the key value (a Bedrock API key) as Bearer; or, when the key's `bedrock_key_config` has access keys,
 *   SigV4 for service `bedrock-mantle`, signed in `authorize`.
 */
export class BedrockMantleAdapter implements ProviderAdapter {
  readonly kinds: ReadonlySet<InferenceKind> = new Set<InferenceKind>(['chat']);
  private readonly openai = new OpenAiCompatibleAdapter('bedrock_mantle', {
    requiredPrefix: '/v1',
    auth: 'bearer',
    kinds: ['chat'],
  });

  defaultBaseUrl(): string {
    return mantleHost(DEFAULT_REGION);
  }

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const located = this.located(target);
    if (!isClaude(target.model)) return this.openai.buildRequest(kind, body, located, stream);
    const call = anthropicAdapter.buildRequest(
      kind,
      body,
      { ...located, baseUrl: `${located.baseUrl}/anthropic` },
      stream,
    );
    // Mantle takes its own credential on the Anthropic surface too: Bearer (or SigV4), never x-api-key.
    const headers = { ...call.headers };
    delete headers['x-api-key'];
    if (target.key.value && !hasAccessKeys(target)) headers.authorization = `Bearer ${target.key.value}`;
    return { ...call, headers };
  }

  async authorize(call: UpstreamCall, target: ProviderTarget, io: AdapterIo): Promise<UpstreamCall> {
    const settings = target.key.bedrock;
    if (!settings?.accessKeyId || !settings.secretAccessKey) return call;
    return signedCall(
      call,
      SIGNING_SERVICE,
      { ...settings, accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      io.now(),
    );
  }

  parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    return this.delegate(target).parseResponse(kind, body, target);
  }

  streamDecoder(kind: InferenceKind, target: ProviderTarget): StreamDecoder {
    return this.delegate(target).streamDecoder(kind, target);
  }

  /** Anthropic's `{type: "error"}` from the Claude surface; OpenAI's shape otherwise. */
  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError {
    const parsed = parseJson(body);
    if (isJsonObject(parsed) && parsed.type === 'error') return anthropicAdapter.parseError(status, headers, body);
    return this.openai.parseError(status, headers, body);
  }

  buildListModels(target: ProviderTarget): UpstreamCall {
    return this.openai.buildListModels(this.located(target));
  }

  parseListModels(body: Json): ListedModel[] {
    return this.openai.parseListModels(body);
  }

  private delegate(target: ProviderTarget): ProviderAdapter {
    return isClaude(target.model) ? anthropicAdapter : this.openai;
  }

  /** The target on the key's regional host (a configured `base_url` wins), without a Bearer when SigV4 signs. */
  private located(target: ProviderTarget): ProviderTarget {
    const region = target.key.bedrock?.region;
    const regional = region && target.baseUrl === mantleHost(DEFAULT_REGION) ? mantleHost(region) : target.baseUrl;
    const key = hasAccessKeys(target) ? { ...target.key, value: '' } : target.key;
    return { ...target, baseUrl: regional, key };
  }
}

function hasAccessKeys(target: ProviderTarget): boolean {
  return Boolean(target.key.bedrock?.accessKeyId && target.key.bedrock.secretAccessKey);
}
