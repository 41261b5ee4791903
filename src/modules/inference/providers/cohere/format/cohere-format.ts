import type { ErrorResponse } from '../../../../../core/errors/error-response.js';
import type { NativeFormat, NativeOperation } from '../../../formats/native-format.js';
import { chatFromCanonical, cohereErrorBody, embedFromCanonical, rerankFromCanonical } from './cohere-answer.js';
import { chatToCanonical, embedToCanonical, rerankToCanonical } from './cohere-request.js';
import { CohereStreamEncoder } from './cohere-stream-encoder.js';

/** Any error of a `/cohere` route: its status and headers, Cohere's `{ message }` body with our fields. */
export function renderCohereError(response: ErrorResponse): {
  status: number;
  headers: Record<string, string>;
  body: unknown;
} {
  return { status: response.status, headers: response.headers, body: cohereErrorBody(response) };
}

/** The `/cohere` set: a bare model is Cohere's. */
export const cohereFormat: NativeFormat = {
  name: 'cohere',
  renderError: renderCohereError,
};

/** `POST /cohere/v2/chat`, unary or `stream: true`. */
export const cohereChat: NativeOperation = {
  kind: 'chat',
  toCanonical: (body) => chatToCanonical(body),
  fromCanonical: (answer, usage) => chatFromCanonical(answer, usage),
  streamEncoder: () => new CohereStreamEncoder(),
};

/** `POST /cohere/v2/embed`. */
export const cohereEmbed: NativeOperation = {
  kind: 'embeddings',
  toCanonical: (body) => embedToCanonical(body),
  fromCanonical: (answer, usage, request) => embedFromCanonical(answer, usage, request.body),
};

/** `POST /cohere/v2/rerank`. */
export const cohereRerank: NativeOperation = {
  kind: 'rerank',
  toCanonical: (body) => rerankToCanonical(body),
  fromCanonical: (answer, usage) => rerankFromCanonical(answer, usage),
};
