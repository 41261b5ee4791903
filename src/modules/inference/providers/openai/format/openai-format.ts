import type { InboundFormat } from '../../provider-descriptor.js';
import type { InferenceKind, Json } from '../../shared/provider-adapter.js';
import { withCanonicalModels } from '../../../formats/format-routes.js';
import type { NativeOperation } from '../../../formats/native-format.js';

export interface OpenAiOperationOptions {
  /** A path parameter that names the model in place of `body.model` (Azure's `{deployment}`). */
  modelParam?: string;
  /** The inbound format whose native provider a bare model is: `openai` (default), `azure` for its deployments. */
  format?: Extract<InboundFormat, 'openai' | 'azure'>;
}

/**
 * The `/openai` set (and `/<framework>/v1`): the canonical shapes themselves, so the only conversion is the model, a
 * bare one being OpenAI's; answers, streams and errors are the /v1 ones (the GatewayError's `error{}` is what the
 * OpenAI SDKs read). The Azure-style deployment routes take the model from the path instead.
 */
export function openAiOperation(kind: InferenceKind, options: OpenAiOperationOptions = {}): NativeOperation {
  const format = options.format ?? 'openai';
  return {
    kind,
    toCanonical(body, params) {
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return { body: body as Json, stream: false };
      const source = options.modelParam ? { ...(body as Json), model: params[options.modelParam] } : (body as Json);
      const canonical = withCanonicalModels(source, format);
      return { body: canonical, stream: canonical.stream === true };
    },
    fromCanonical: (answer) => answer,
  };
}
