import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import { bedrockErrorBody } from './bedrock-errors.js';

/** The content type of Bedrock's binary streams (ConverseStream, InvokeModelWithResponseStream). */
export const EVENT_STREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function header(value: string): MessageHeaders[string] {
  return { type: 'string', value };
}

/** One `:message-type: event` frame: the SDK reads `:event-type` as the member of the stream's output union. */
export function eventFrame(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': header(eventType),
      ':content-type': header('application/json'),
      ':message-type': header('event'),
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/**
 * The in-stream exception names of Bedrock's stream unions by status: the SDK raises the matching exception class
 * (`ThrottlingException`, …) from a `:message-type: exception` frame.
 */
export function streamExceptionType(status: number): string {
  if (status === 400 || status === 413 || status === 422) return 'validationException';
  if (status === 429) return 'throttlingException';
  if (status === 503 || status === 529) return 'serviceUnavailableException';
  if (status === 502 || status === 424) return 'modelStreamErrorException';
  return 'internalServerException';
}

/** A failure after the stream started, as the exception frame that ends it; the body keeps the GatewayError fields. */
export function exceptionFrame(response: ErrorResponse): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': header(streamExceptionType(response.status)),
      ':content-type': header('application/json'),
      ':message-type': header('exception'),
    },
    body: fromUtf8(JSON.stringify(bedrockErrorBody(response))),
  });
}
