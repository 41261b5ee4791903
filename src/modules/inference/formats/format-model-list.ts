import type { FastifyRequest } from 'fastify';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { InboundFormat } from '../providers/provider-descriptor.js';
import { nativeProviderOf } from '../providers/registry.js';
import type { CatalogModel } from '../providers/shared/provider-adapter.js';
import { canonicalModel } from './format-routes.js';

/**
 * Helpers of the provider-format model listings (`GET /anthropic/v1/models`, `/genai/v1beta/models`, …): which id a
 * format shows, how a route's id finds its model, and paging by offset.
 */

/**
 * The id a format's listing shows: the models of the provider `format` is native to bare, as its SDK names them, every
 * other one `<provider>/<model>`; the format's inference routes take either back (see `canonicalModel`).
 */
export function nativeModelId(model: CatalogModel, format: InboundFormat): string {
  return model.provider === nativeProviderOf(format) ? model.id : model.ref;
}

/** The model a format's route names (bare = the format's native provider), or a 404 `model_not_found`. */
export function findModel(models: CatalogModel[], id: string, format: InboundFormat, param: string): CatalogModel {
  const ref = canonicalModel(id, format, param);
  const found = models.find((m) => m.ref === ref);
  if (!found) throw GatewayException.notFound('model', `No configured provider lists the model ${id}`);
  return found;
}

/** A model route's `*` parameter: the id after `…/models/`, decoded by the router (`openai%2Fgpt-4o` holds a `/`). */
export function wildcardOf(request: FastifyRequest): string {
  return (request.params as Record<string, string | undefined>)['*'] ?? '';
}

/**
 * The provider's own operation names for a model (Gemini's generation methods, Cohere's endpoints) when `model` is
 * of the provider `format` is native to and its list said them; otherwise `guess`, from whether the name looks like an
 * embedding model (other providers' lists do not say what a model does).
 */
export function operationsOf(
  model: CatalogModel,
  format: InboundFormat,
  guess: { generate: string[]; embed: string[] },
): string[] {
  if (model.provider === nativeProviderOf(format) && model.methods !== undefined) return model.methods;
  return /embed/i.test(model.id) ? guess.embed : guess.generate;
}

/** A page size from the query: an integer in [1, max], `fallback` when absent. */
export function pageSizeOf(value: unknown, param: string, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw GatewayException.validation(param, `${param} must be an integer from 1 to ${max}`);
  }
  return n;
}

/** Page tokens are opaque to clients: the offset of the page's first model. */
export function pageToken(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

/** The offset a page token names (0 without one); a token we did not make is a 400 naming `param`. */
export function offsetOf(token: unknown, param: string): number {
  if (token === undefined || token === '') return 0;
  const match =
    typeof token === 'string' ? /^offset:(\d{1,9})$/.exec(Buffer.from(token, 'base64url').toString()) : null;
  if (!match?.[1]) throw GatewayException.validation(param, `${param} is not a page token this gateway gave`);
  return Number(match[1]);
}

/** One page of `items` from `offset`, with the token of the next page when there is one. */
export function pageAt<T>(items: T[], offset: number, size: number): { page: T[]; next?: string } {
  const page = items.slice(offset, offset + size);
  return offset + size < items.length ? { page, next: pageToken(offset + size) } : { page };
}
