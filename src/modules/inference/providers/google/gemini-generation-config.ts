import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { isJsonObject } from '../shared/wire-json.js';
import type { Json } from '../shared/provider-adapter.js';

/**
 * `reasoning_effort` → `thinkingConfig.thinkingBudget`. 512 is the smallest budget every 2.5 model accepts; 'none'
 * turns thinking off where the model allows it (2.5 Pro does not, and says so).
 */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<string, number>> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
};

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** The sampling, output-format and thinking settings of a chat body as Gemini's `generationConfig`. */
export function geminiGenerationConfig(body: Json): Json {
  const config: Json = {};
  const max = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : body.max_tokens;
  if (typeof max === 'number') config.maxOutputTokens = max;
  const numbers = [
    ['temperature', 'temperature'],
    ['top_p', 'topP'],
    ['top_k', 'topK'],
    ['n', 'candidateCount'],
    ['presence_penalty', 'presencePenalty'],
    ['frequency_penalty', 'frequencyPenalty'],
    ['seed', 'seed'],
  ] as const;
  for (const [from, to] of numbers) if (typeof body[from] === 'number') config[to] = body[from];
  if (typeof body.stop === 'string') config.stopSequences = [body.stop];
  else if (Array.isArray(body.stop)) config.stopSequences = body.stop;

  const format = body.response_format;
  if (isJsonObject(format)) {
    if (format.type === 'json_object') config.responseMimeType = 'application/json';
    else if (format.type === 'json_schema') {
      config.responseMimeType = 'application/json';
      const schema = isJsonObject(format.json_schema) ? format.json_schema.schema : undefined;
      if (isJsonObject(schema)) config.responseSchema = schema;
    } else if (format.type !== 'text')
      throw invalid('response_format.type', 'response_format.type must be text, json_object or json_schema');
  }

  const effort = body.reasoning_effort;
  if (effort !== undefined && effort !== null) {
    const budget = typeof effort === 'string' ? GEMINI_THINKING_BUDGETS[effort] : undefined;
    if (budget === undefined)
      throw invalid('reasoning_effort', 'reasoning_effort must be one of none, minimal, low, medium, high, xhigh');
    // includeThoughts returns thought summaries, which become reasoning_content.
    config.thinkingConfig = budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
  }
  return config;
}
