import { MEDIA_KINDS } from '../../media/media-kinds.js';
import { openAiMediaCall } from './openai-media.js';
import { openAiRequestBody, upstreamHeaders } from './openai-request.js';
import { unsupportedKind } from '../shared/native-adapter-parts.js';
import { OpenAiWireAdapter } from './openai-wire.adapter.js';
import type { InferenceKind, Json, ProviderTarget, UpstreamCall } from '../shared/provider-adapter.js';

/** The GA data-plane version (inference.md §2.2); a key's `api_version` overrides it. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

const DEPLOYMENT_PATHS: Partial<Record<InferenceKind, string>> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
  speech: 'audio/speech',
  transcription: 'audio/transcriptions',
  image_generation: 'images/generations',
  image_edit: 'images/edits',
};

/**
 * Azure OpenAI: the OpenAI wire format (bodies, streams, errors and usage are the OpenAI-compatible adapter's) on
 * Azure's URLs with the `api-key` header.
 *
 * - Chat, completions, embeddings: `{endpoint}/openai/deployments/{deployment}/…?api-version=…`. The deployment is
 *   the key's `deployments[model]`, else the model name itself.
 * - Speech, transcriptions, image generations and edits: the same deployment paths (`audio/speech`, …); image
 *   variations are not served by Azure.
 * - Responses: the v1 surface, `{endpoint}/openai/v1/responses?api-version=preview`, whose `model` is the deployment.
 * - The endpoint is per key (`key.azure.endpoint`), so there is no default base URL; a key without one falls back to
 *   the provider's `base_url`.
 * - Model listing asks the resource (`{endpoint}/openai/models?api-version=…`): it lists what the resource can serve,
 *   which says whether the key and endpoint work. What routing can call is the key's `deployments` map (plus any
 *   model used as its own deployment name), already known without a request.
 */
export class AzureAdapter extends OpenAiWireAdapter {
  readonly kinds: ReadonlySet<InferenceKind> = new Set<InferenceKind>([
    'chat',
    'completions',
    'embeddings',
    'responses',
    'speech',
    'transcription',
    'image_generation',
    'image_edit',
  ]);

  defaultBaseUrl(): string | undefined {
    return undefined;
  }

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const deployment = this.deployment(target);
    const streams = stream && kind !== 'embeddings';
    let url: string;
    let model = target.model;
    if (kind === 'responses') {
      url = `${this.endpoint(target)}/openai/v1/responses?api-version=preview`;
      model = deployment;
    } else {
      const path = DEPLOYMENT_PATHS[kind];
      if (!path) throw unsupportedKind('azure', kind);
      url =
        `${this.endpoint(target)}/openai/deployments/${encodeURIComponent(deployment)}/${path}` +
        `?api-version=${encodeURIComponent(this.apiVersion(target))}`;
    }
    if (MEDIA_KINDS.has(kind)) {
      const headers = upstreamHeaders(target, 'api-key', { body: true, stream: false });
      return { method: 'POST', url, ...openAiMediaCall(kind, body, model, headers) };
    }
    return {
      method: 'POST',
      url,
      headers: upstreamHeaders(target, 'api-key', { body: true, stream: streams }),
      body: JSON.stringify(openAiRequestBody(kind, body, model, streams)),
    };
  }

  buildListModels(target: ProviderTarget): UpstreamCall {
    return {
      method: 'GET',
      url: `${this.endpoint(target)}/openai/models?api-version=${encodeURIComponent(this.apiVersion(target))}`,
      headers: upstreamHeaders(target, 'api-key', { body: false, stream: false }),
    };
  }

  private endpoint(target: ProviderTarget): string {
    return (target.key.azure?.endpoint || target.baseUrl).replace(/\/+$/, '');
  }

  private apiVersion(target: ProviderTarget): string {
    return target.key.azure?.api_version || AZURE_DEFAULT_API_VERSION;
  }

  private deployment(target: ProviderTarget): string {
    const deployments = target.key.azure?.deployments ?? {};
    return Object.hasOwn(deployments, target.model) ? (deployments[target.model] ?? target.model) : target.model;
  }
}
