import type { FastifyRequest } from 'fastify';
import { routeConfig } from '../http/route-config.js';
import type { ErrorResponse } from './error-response.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** `extra_fields` every error of this request carries (the global filter adds them). */
    errorFields?: Record<string, unknown>;
    /**
     * Renders this request's errors in a provider's native shape (the provider-format endpoints: an Anthropic SDK
     * reads `{type:"error", error:{…}}`); unset, the GatewayError body goes out as it is.
     */
    nativeError?: NativeErrorRenderer;
  }
}

/** A GatewayError response re-shaped for a native client: its status, headers and body. */
export type NativeErrorRenderer = (response: ErrorResponse) => {
  status: number;
  headers: Record<string, string>;
  body: unknown;
};

/** Route config key of `@NativeErrors`. */
export const NATIVE_ERRORS = 'gatewayNativeErrors';

/**
 * Declares the native error shape of a route (or of a controller's routes). The route gate sets it on the request
 * before authenticating, so 401 and 403 come back in that shape too.
 */
export const NativeErrors = (renderer: NativeErrorRenderer) => routeConfig(NATIVE_ERRORS, renderer);

/**
 * Reads the extra fields of a route's errors from the request. It runs twice: before authentication, where params and
 * query are available and the body is not yet read (`request.body` undefined), and again once the body is parsed.
 */
export type ErrorFieldsResolver = (request: FastifyRequest) => Record<string, unknown>;

/** Route config key of `@ErrorFields`. */
export const ERROR_FIELDS = 'gatewayErrorFields';

/**
 * Declares the `extra_fields` every error of a route (or of a controller's routes) carries, such as
 * `a2a_request_type` and `a2a_agent_name`. The route gate resolves them before authenticating, so 401 and 403 carry
 * what the path and query say; the guard resolves them again with the parsed body. The global filter and every other
 * error renderer add them. An exception's own extra fields win.
 */
export const ErrorFields = (resolver: ErrorFieldsResolver) => routeConfig(ERROR_FIELDS, resolver);

/** Adds fields to the request's error context; undefined values are left out. */
export function addErrorFields(request: FastifyRequest, fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    request.errorFields ??= {};
    request.errorFields[key] = value;
  }
}
