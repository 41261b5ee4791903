import type { InferenceKind, Json } from '../../providers/provider-adapter.js';
import { withCanonicalModels } from '../format-routes.js';
import type { NativeOperation } from '../native-format.js';

/**
 * The `/openai` set (and `/<framework>/v1`): the canonical shapes themselves, so the only conversion is the model, a
 * bare one being OpenAI's; answers, streams and errors are the /v1 ones (the GatewayError's `error{}` is what the
 * OpenAI SDKs read).
 */
export function openAiOperation(kind: InferenceKind): NativeOperation {
  return {
    kind,
    toCanonical(body) {
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return { body: body as Json, stream: false };
      const canonical = withCanonicalModels(body as Json, 'openai');
      return { body: canonical, stream: canonical.stream === true };
    },
    fromCanonical: (answer) => answer,
  };
}
