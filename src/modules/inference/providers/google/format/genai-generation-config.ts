import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import { GEMINI_THINKING_BUDGETS } from '../gemini-generation-config.js';
import type { Json } from '../../shared/provider-adapter.js';
import { isJsonObject } from '../../shared/wire-json.js';
import { jsonSchema } from './genai-schema.js';

/**
 * Gemini's `generationConfig` → the canonical chat settings: the inverse of `providers/google/gemini-generation-config.ts`,
 * so a request served by Gemini goes upstream as it came.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

const NUMBERS = [
  ['temperature', 'temperature'],
  ['topP', 'top_p'],
  ['topK', 'top_k'],
  ['maxOutputTokens', 'max_tokens'],
  ['candidateCount', 'n'],
  ['presencePenalty', 'presence_penalty'],
  ['frequencyPenalty', 'frequency_penalty'],
  ['seed', 'seed'],
] as const;

/** The budgets of `reasoning_effort`, smallest first: a Gemini budget maps to the first effort that covers it. */
const EFFORTS = Object.entries(GEMINI_THINKING_BUDGETS).sort((a, b) => a[1] - b[1]);

export function genaiGenerationSettings(config: unknown): Json {
  if (config === undefined || config === null) return {};
  if (!isJsonObject(config)) throw invalid('generationConfig', 'generationConfig must be an object');
  const out: Json = {};
  for (const [from, to] of NUMBERS) {
    const value = config[from];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number') throw invalid(`generationConfig.${from}`, `${from} must be a number`);
    out[to] = value;
  }
  const stops = config.stopSequences;
  if (stops !== undefined && stops !== null) {
    if (!Array.isArray(stops) || !stops.every((s) => typeof s === 'string'))
      throw invalid('generationConfig.stopSequences', 'stopSequences must be an array of strings');
    if (stops.length > 0) out.stop = stops;
  }
  const format = responseFormat(config);
  if (format) out.response_format = format;
  const effort = reasoningEffort(config.thinkingConfig);
  if (effort) out.reasoning_effort = effort;
  return out;
}

function responseFormat(config: Json): Json | undefined {
  const schema = config.responseJsonSchema ?? config.responseSchema;
  if (isJsonObject(schema)) {
    const converted = config.responseJsonSchema !== undefined ? schema : jsonSchema(schema);
    return { type: 'json_schema', json_schema: { name: 'response', schema: converted } };
  }
  if (config.responseMimeType === 'application/json') return { type: 'json_object' };
  return undefined;
}

/** A thinking budget (or a Gemini 3 `thinkingLevel`) as the effort whose budget covers it; -1 (dynamic) is medium. */
function reasoningEffort(thinking: unknown): string | undefined {
  if (thinking === undefined || thinking === null) return undefined;
  if (!isJsonObject(thinking)) throw invalid('generationConfig.thinkingConfig', 'thinkingConfig must be an object');
  if (typeof thinking.thinkingLevel === 'string') {
    const level = thinking.thinkingLevel.toLowerCase();
    if (GEMINI_THINKING_BUDGETS[level] !== undefined) return level;
    throw invalid(
      'generationConfig.thinkingConfig.thinkingLevel',
      'thinkingLevel must be minimal, low, medium or high',
    );
  }
  const budget = thinking.thinkingBudget;
  if (budget === undefined || budget === null) return thinking.includeThoughts === true ? 'medium' : undefined;
  if (typeof budget !== 'number')
    throw invalid('generationConfig.thinkingConfig.thinkingBudget', 'thinkingBudget must be a number');
  if (budget < 0) return 'medium';
  return (EFFORTS.find(([, max]) => budget <= max) ?? EFFORTS[EFFORTS.length - 1]!)[0];
}
