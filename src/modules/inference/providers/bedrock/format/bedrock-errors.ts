import type { ErrorResponse } from '../../../../../core/errors/error-response.js';

/**
 * Bedrock Runtime's exception names by status, sent in `x-amzn-ErrorType`: the AWS SDK picks the exception class it
 * raises from that header. 401 is `UnrecognizedClientException`, as AWS answers a credential it does not know.
 */
export function bedrockExceptionName(status: number): string {
  switch (status) {
    case 401:
      return 'UnrecognizedClientException';
    case 403:
      return 'AccessDeniedException';
    case 404:
      return 'ResourceNotFoundException';
    case 408:
    case 504:
      return 'ModelTimeoutException';
    case 424:
      return 'ModelErrorException';
    case 429:
      return 'ThrottlingException';
    case 503:
    case 529:
      return 'ServiceUnavailableException';
    default:
      return status >= 500 ? 'InternalServerException' : 'ValidationException';
  }
}

/** Bedrock's `{message}` with the GatewayError's own fields beside it (event id, error code and param, extra fields). */
export function bedrockErrorBody(response: ErrorResponse): Record<string, unknown> {
  return { message: response.body.error.message, ...response.body };
}

/** Any error of a `/bedrock` route in Bedrock's shape: the status kept, the exception named in the header. */
export function renderBedrockError(response: ErrorResponse): {
  status: number;
  headers: Record<string, string>;
  body: unknown;
} {
  return {
    status: response.status,
    headers: { ...response.headers, 'x-amzn-ErrorType': bedrockExceptionName(response.status) },
    body: bedrockErrorBody(response),
  };
}
