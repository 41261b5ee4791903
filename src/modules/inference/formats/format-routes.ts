import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { InboundFormat } from '../providers/provider-descriptor.js';
import { nativeProviderOf } from '../providers/registry.js';
import type { Json } from '../providers/shared/provider-adapter.js';
import { parseModelRef } from '../providers/shared/model-ref.js';

/** Framework-format prefixes: each mounts every provider-format set under itself, with no behaviour of its own. */
export const FRAMEWORK_PREFIXES = ['litellm', 'langchain', 'pydanticai'] as const;

/**
 * The controller paths of a provider-format set: `prefix` itself and `<framework>/<prefix>` for each framework, so
 * one controller (one route table, no copied handlers) serves `/anthropic/v1/messages` and
 * `/litellm/anthropic/v1/messages` alike.
 */
export function formatPaths(prefix: string): string[] {
  return [prefix, ...FRAMEWORK_PREFIXES.map((framework) => `${framework}/${prefix}`)];
}

/**
 * A model as a native route names it, as the canonical `<provider>/<model>`: a name that starts with one of the
 * provider ids keeps it (`openai/gpt-4o` sent to `/anthropic` goes to OpenAI), any other gets the provider `format`
 * is native to (the registry's descriptors say which).
 */
export function canonicalModel(value: unknown, format: InboundFormat, param = 'model'): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw GatewayException.validation(param, `${param} must be a non-empty string`);
  }
  return parseModelRef(value).provider ? value : `${nativeProviderOf(format)}/${value}`;
}

/** `body.model` and each of `body.fallbacks` made canonical (a copy; the caller's body is not changed). */
export function withCanonicalModels(body: Json, format: InboundFormat): Json {
  const out: Json = { ...body, model: canonicalModel(body.model, format) };
  if (Array.isArray(body.fallbacks)) {
    out.fallbacks = body.fallbacks.map((f, i) => canonicalModel(f, format, `fallbacks[${i}]`));
  }
  return out;
}
