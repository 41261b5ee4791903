import type { ProviderId } from '../providers/provider-ids.js';
import type { PluginAnswer } from '../../plugins/index.js';
import type { Admission } from '../../governance/index.js';
import type { CallOrigin } from '../logs/request-log.recorder.js';
import type { InferenceKind, Json, Usage } from '../providers/shared/provider-adapter.js';
import type { InferenceCall, RoutedResult, ServedAnswer, StreamEnd } from '../routing/inference-call.js';

/**
 * A unary answer in the caller's shape from its priced usage (the responder's, free of side effects). `keepOutput`,
 * when the request is logged, is handed the answer's body once it is final but before any encoding (an embeddings
 * summary needs the vectors' length).
 */
export type ShapeAnswer = (usage: Usage | undefined, keepOutput: ((body: Json) => void) | undefined) => ServedAnswer;

/** Every way an inference request ends; each passes `InferenceCompletion.complete` once. */
export type Outcome =
  /** A provider's unary answer (each round of agent mode is one). */
  | { kind: 'served'; result: RoutedResult; shape: ShapeAnswer }
  /** A plugin's unary answer (a cache hit), with the admission that counted it as a request. */
  | {
      kind: 'answered';
      result: RoutedResult;
      answer: Extract<PluginAnswer, { type: 'unary' }>;
      admission: Admission | undefined;
      shape: ShapeAnswer;
    }
  /** A provider's stream: its end, its break or the client's 499. */
  | { kind: 'streamed'; result: RoutedResult; end: StreamEnd }
  /** A plugin's stream replayed (a cache hit). */
  | { kind: 'replayed'; result: RoutedResult; end: StreamEnd; admission: Admission | undefined }
  /**
   * No answer: a refusal, a validation error, every model failed, or a failure on the way out. `origin`, `requestKind`
   * and `body` describe a request refused before its call was built; `admission` is any reservation it still holds.
   */
  | {
      kind: 'failed';
      error: unknown;
      origin: CallOrigin | undefined;
      requestKind: InferenceKind;
      body: unknown;
      admission: Admission | undefined;
    };

/** A plugin's answer as the served-answer path sees a routed one: its provider and model, no key, no upstream time. */
export function answeredResult(call: InferenceCall, answer: PluginAnswer, bridged: boolean): RoutedResult {
  return {
    routing: { provider: answer.provider as ProviderId, model: answer.model },
    fallbackIndex: 0,
    retries: 0,
    upstreamLatencyMs: 0,
    provider: answer.provider as ProviderId,
    upstreamKind: bridged ? 'chat' : call.kind,
    bridged,
    pricedModel: answer.model,
    keyName: '',
    keyId: '',
    modelStartedAt: performance.now(),
    modelRetries: 0,
  };
}
