import { SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
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

export const NATIVE_ERRORS = 'gateway:native-errors';

/**
 * Declares the native error shape of a route (or of a controller's routes). The guard sets it on the request before
 * authenticating, so 401 and 403 come back in that shape too.
 */
export const NativeErrors = (renderer: NativeErrorRenderer) => SetMetadata(NATIVE_ERRORS, renderer);

/** Reads the extra fields of a route's errors from the request (params, query and the parsed body are available). */
export type ErrorFieldsResolver = (request: FastifyRequest) => Record<string, unknown>;

export const ERROR_FIELDS = 'gateway:error-fields';

/**
 * Declares the `extra_fields` every error of a route (or of a controller's routes) carries, such as
 * `a2a_request_type` and `a2a_agent_name`. The guard resolves them before authenticating, so 401 and 403 carry them
 * too; the global filter and every other error renderer add them. An exception's own extra fields win.
 */
export const ErrorFields = (resolver: ErrorFieldsResolver) => SetMetadata(ERROR_FIELDS, resolver);

/** Adds fields to the request's error context; undefined values are left out. */
export function addErrorFields(request: FastifyRequest, fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    request.errorFields ??= {};
    request.errorFields[key] = value;
  }
}
