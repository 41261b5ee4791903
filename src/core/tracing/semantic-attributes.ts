/**
 * The OpenTelemetry attribute names the gateway writes itself, with the values of `@opentelemetry/semantic-conventions`
 * (test/inference/otel-traces.e2e-spec.ts compares them). Importing that package for four strings loads its whole
 * index of the specification's attributes: about 0.7 MB of V8 heap for as long as the process lives, tracing on or
 * off.
 */
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_SERVICE_NAME = 'service.name';
export const ATTR_SERVICE_VERSION = 'service.version';
