import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { ProviderTarget } from '../shared/provider-adapter.js';

/**
 * Where a Vertex call goes. One provider id serves three wire families, told apart by the model name:
 * - `claude-*`: Anthropic's Messages API on `publishers/anthropic` (`:rawPredict` / `:streamRawPredict`);
 * - a name with a `/` (`meta/llama-3.1-8b-instruct-maas`, `mistralai/…`): the OpenAI-compatible MaaS endpoint
 *   (`endpoints/openapi/chat/completions`), whose `model` is that publisher/model name;
 * - anything else (`gemini-*` and other Google models): the Gemini API shapes on `publishers/google`.
 */
export type VertexFamily = 'gemini' | 'anthropic' | 'openapi';

/** The Anthropic API version Vertex expects in the body (it takes no `anthropic-version` header). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export function vertexFamily(model: string): VertexFamily {
  if (model.startsWith('claude-')) return 'anthropic';
  if (model.includes('/')) return 'openapi';
  return 'gemini';
}

/** `https://{region}-aiplatform.googleapis.com`, or the global host; a provider `base_url` replaces it. */
export function vertexHost(region: string): string {
  return region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
}

/** The key's project and region; a key without `vertex_key_config` cannot address any Vertex resource. */
function location(target: ProviderTarget): { project: string; region: string } {
  const vertex = target.key.vertex;
  if (!vertex?.projectId || !vertex.region) {
    throw new GatewayException(502, 'upstream_error', `Vertex key ${target.key.name} has no vertex_key_config`, {
      reason: 'provider_auth_failed',
    });
  }
  return { project: vertex.projectId, region: vertex.region };
}

/** The base of every call: the provider's `base_url` override, else the key region's host. */
function base(target: ProviderTarget): string {
  return target.baseUrl || vertexHost(location(target).region);
}

function locationPath(target: ProviderTarget, version: 'v1' | 'v1beta1'): string {
  const { project, region } = location(target);
  return `${base(target)}/${version}/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(region)}`;
}

/** `…/publishers/{publisher}/models/{model}:{method}`. */
export function publisherModelUrl(
  target: ProviderTarget,
  publisher: 'google' | 'anthropic',
  model: string,
  method: string,
): string {
  return `${locationPath(target, 'v1')}/publishers/${publisher}/models/${encodeURIComponent(model)}:${method}`;
}

/** The OpenAI-compatible MaaS chat endpoint of the key's project and region. */
export function openapiChatUrl(target: ProviderTarget): string {
  return `${locationPath(target, 'v1beta1')}/endpoints/openapi/chat/completions`;
}

/** Google's publisher model catalogue (not per project or region). */
export function publisherModelsUrl(target: ProviderTarget): string {
  return `${base(target)}/v1beta1/publishers/google/models?pageSize=1000`;
}
