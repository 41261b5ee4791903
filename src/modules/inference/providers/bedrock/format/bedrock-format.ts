import type { Json } from '../../shared/provider-adapter.js';
import { canonicalModel } from '../../../formats/format-routes.js';
import type { NativeFormat, NativeOperation } from '../../../formats/native-format.js';
import { converseToChat } from './bedrock-converse-request.js';
import { chatToConverse } from './bedrock-converse-response.js';
import { ConverseStreamEncoder } from './bedrock-converse-stream.js';
import { renderBedrockError } from './bedrock-errors.js';
import { messageFromCanonical } from '../../anthropic/format/anthropic-answer.js';
import { messagesToCanonical } from '../../anthropic/format/anthropic-request.js';
import { claudeAsMessages } from './bedrock-invoke-request.js';
import { ClaudeInvokeStreamEncoder } from './bedrock-invoke-stream.js';

/**
 * The `/bedrock` set (Bedrock Runtime's paths, for `@aws-sdk/client-bedrock-runtime` pointed at the gateway): the
 * model comes from the path, a bare id being Bedrock's own and a URL-encoded `openai%2Fgpt-4o` going to OpenAI.
 */
export const bedrockFormat: NativeFormat = {
  name: 'bedrock',
  renderError: renderBedrockError,
};

/** The canonical model of the path's `modelId` (the SDK URL-encodes it; Fastify may have decoded it already). */
export function modelOfPath(params: Record<string, string>): string {
  const raw = params.modelId ?? '';
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    // Not percent-encoded after all (a lone `%`): the id as it came.
  }
  return canonicalModel(id, bedrockFormat.name, 'modelId');
}

/** When each canonical request began: Converse reports the latency in its answer. */
const begun = new WeakMap<Json, number>();

function converse(stream: boolean): NativeOperation {
  return {
    kind: 'chat',
    toCanonical(body, params) {
      const canonical = converseToChat(body, modelOfPath(params), stream);
      begun.set(canonical, performance.now());
      return { body: canonical, stream };
    },
    fromCanonical(answer, usage, request) {
      const started = begun.get(request.body);
      return chatToConverse(answer, usage, started === undefined ? 0 : performance.now() - started);
    },
    streamEncoder: () => new ConverseStreamEncoder(),
  };
}

/** InvokeModel with a Claude body: the `/anthropic` format's conversions, the model from the path. */
function invoke(stream: boolean): NativeOperation {
  return {
    kind: 'chat',
    toCanonical: (body, params) => messagesToCanonical(claudeAsMessages(body, modelOfPath(params), stream)),
    fromCanonical: (answer, usage, request) => messageFromCanonical(answer, usage, request.body.model),
    streamEncoder: (request) => new ClaudeInvokeStreamEncoder(request.body.model),
  };
}

export const BEDROCK_OPERATIONS = {
  converse: converse(false),
  'converse-stream': converse(true),
  invoke: invoke(false),
  'invoke-with-response-stream': invoke(true),
} as const;

export type BedrockOperationName = keyof typeof BEDROCK_OPERATIONS;
