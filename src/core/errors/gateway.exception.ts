import { errorTypeForStatus, type ErrorCode, type ErrorReason, type NotFoundResource } from './error-catalogue.js';

export interface GatewayExceptionOptions {
  /** Overrides the `type` derived from the status. */
  type?: string;
  /** The request field at fault (`runtime_auth.oauth.client_id`). */
  param?: string;
  /** `extra_fields.error_type`. */
  reason?: ErrorReason;
  /** Other `extra_fields` (a2a_request_type, routing_info, ...). */
  extraFields?: Record<string, unknown>;
  /** Response headers to send with the error (Retry-After, Allow, ...). */
  headers?: Record<string, string>;
  /** False when relaying an upstream provider's error. */
  isGatewayError?: boolean;
  /** A relayed provider's own error code, sent as `error.code` in place of the catalogue code (kept for its SDKs). */
  wireCode?: string;
  cause?: unknown;
}

/**
 * The one exception domain code throws. The global filter turns it into a GatewayError body; nothing else builds
 * error bodies.
 */
export class GatewayException extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly type: string;
  readonly param?: string;
  readonly reason?: ErrorReason;
  readonly extraFields?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly isGatewayError: boolean;
  readonly wireCode?: string;

  constructor(status: number, code: ErrorCode, message: string, options: GatewayExceptionOptions = {}) {
    // Without a stack: an error the gateway answers on purpose is told by its code and message, and no log writes its
    // stack. Capturing one walked up to ten frames of every refused request (~15 µs of a 401's ~260).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.status = status;
    this.code = code;
    this.name = 'GatewayException';
    this.type = options.type ?? errorTypeForStatus(status);
    this.param = options.param;
    this.reason = options.reason;
    this.extraFields = options.extraFields;
    this.headers = options.headers;
    this.isGatewayError = options.isGatewayError ?? true;
    this.wireCode = options.wireCode;
  }

  /** The same error with more response headers (its own win over `extra`). */
  withHeaders(extra: Record<string, string>): GatewayException {
    const copy = new GatewayException(this.status, this.code, this.message, {
      type: this.type,
      param: this.param,
      reason: this.reason,
      extraFields: this.extraFields,
      headers: { ...extra, ...this.headers },
      isGatewayError: this.isGatewayError,
      wireCode: this.wireCode,
      cause: this.cause,
    });
    copy.stack = this.stack;
    return copy;
  }

  static validation(param: string, message: string): GatewayException {
    return new GatewayException(400, 'validation_failed', message, { param, reason: 'caller_invalid_request' });
  }

  static notFound(resource: NotFoundResource, message: string): GatewayException {
    return new GatewayException(404, `${resource}_not_found`, message);
  }

  static conflict(message: string, param?: string): GatewayException {
    return new GatewayException(409, 'already_exists', message, { param });
  }

  static unauthorized(code: ErrorCode, message: string): GatewayException {
    return new GatewayException(401, code, message, { reason: 'policy_access_denied' });
  }

  static forbidden(code: ErrorCode, message: string): GatewayException {
    return new GatewayException(403, code, message, { reason: 'policy_access_denied' });
  }
}
