import { bareModel } from './gemini-wire.js';
import { nowSeconds } from '../shared/native-adapter-parts.js';
import type { Json, ParsedResponse, ProviderTarget, Usage } from '../shared/provider-adapter.js';
import { isJsonObject, jsonObjects as list } from '../shared/wire-json.js';

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Token counts by modality (`[{ modality: 'TEXT', tokenCount }]`) as contract detail fields. */
function byModality(details: unknown): { text_tokens?: number; audio_tokens?: number; image_tokens?: number } {
  const out: { text_tokens?: number; audio_tokens?: number; image_tokens?: number } = {};
  const fields = { TEXT: 'text_tokens', AUDIO: 'audio_tokens', IMAGE: 'image_tokens' } as const;
  for (const d of list(details)) {
    const field = fields[d.modality as keyof typeof fields] as (typeof fields)[keyof typeof fields] | undefined;
    if (field) out[field] = (out[field] ?? 0) + count(d.tokenCount);
  }
  return out;
}

/** Web searches the model ran (grounding with Google Search), the most any candidate reports. */
export function geminiSearchCount(candidates: unknown): number {
  let n = 0;
  for (const c of list(candidates)) {
    const queries = isJsonObject(c.groundingMetadata) ? c.groundingMetadata.webSearchQueries : undefined;
    if (Array.isArray(queries)) n = Math.max(n, queries.length);
  }
  return n;
}

/**
 * `usageMetadata` → contract usage. promptTokenCount already includes cached tokens; tool-use prompt tokens (search
 * results fed back) are input too and inside totalTokenCount, so they are added to prompt_tokens. Thinking tokens are
 * billed as output: completion = candidates + thoughts.
 */
export function geminiUsage(metadata: unknown, searches = 0): Usage | undefined {
  if (!isJsonObject(metadata)) return undefined;
  const prompt = count(metadata.promptTokenCount) + count(metadata.toolUsePromptTokenCount);
  const thoughts = count(metadata.thoughtsTokenCount);
  const completion = count(metadata.candidatesTokenCount) + thoughts;
  const total = typeof metadata.totalTokenCount === 'number' ? metadata.totalTokenCount : prompt + completion;
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };

  const promptDetails: NonNullable<Usage['prompt_tokens_details']> = byModality(metadata.promptTokensDetails);
  if (count(metadata.cachedContentTokenCount))
    promptDetails.cached_read_tokens = count(metadata.cachedContentTokenCount);
  if (Object.keys(promptDetails).length > 0) usage.prompt_tokens_details = promptDetails;

  const completionDetails: NonNullable<Usage['completion_tokens_details']> = byModality(
    metadata.candidatesTokensDetails,
  );
  if (thoughts) completionDetails.reasoning_tokens = thoughts;
  if (searches) {
    completionDetails.num_search_queries = searches;
    usage.tool_usage = { web_search: { num_requests: searches } };
  }
  if (Object.keys(completionDetails).length > 0) usage.completion_tokens_details = completionDetails;
  return usage;
}

/** finishReason → OpenAI finish_reason; a turn that ends normally after function calls is a tool_calls finish. */
export function geminiFinishReason(reason: unknown, calledTools: boolean): string | null {
  switch (reason) {
    case undefined:
    case null:
    case 'FINISH_REASON_UNSPECIFIED':
      return null;
    case 'STOP':
      return calledTools ? 'tool_calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    default:
      return calledTools ? 'tool_calls' : 'stop';
  }
}

/** The parts of one candidate, sorted into answer text, thought summaries and function calls. */
export interface CandidateParts {
  text: string[];
  thoughts: string[];
  calls: Array<{ name: unknown; arguments: string }>;
}

export function readParts(candidate: Json): CandidateParts {
  const out: CandidateParts = { text: [], thoughts: [], calls: [] };
  const parts = isJsonObject(candidate.content) ? list(candidate.content.parts) : [];
  for (const part of parts) {
    if (typeof part.text === 'string') (part.thought === true ? out.thoughts : out.text).push(part.text);
    else if (isJsonObject(part.functionCall))
      out.calls.push({ name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) });
  }
  return out;
}

/** A GenerateContentResponse → `chat.completion`; function calls get ids `call_<n>` (Gemini sends none). */
export function fromGeminiResponse(body: Json, target: ProviderTarget): ParsedResponse {
  let nextCall = 0;
  const candidates = list(body.candidates);
  const choices = candidates.map((candidate, i) => {
    const parts = readParts(candidate);
    const toolCalls = parts.calls.map((call) => ({
      id: `call_${nextCall++}`,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
    const message: Json = {
      role: 'assistant',
      content: parts.text.length > 0 ? parts.text.join('') : toolCalls.length > 0 ? null : '',
    };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    if (parts.thoughts.length > 0) message.reasoning_content = parts.thoughts.join('');
    const finish = geminiFinishReason(candidate.finishReason, toolCalls.length > 0) ?? 'stop';
    return {
      index: typeof candidate.index === 'number' ? candidate.index : i,
      message,
      finish_reason: finish,
      logprobs: null,
    };
  });
  if (choices.length === 0) {
    // No candidate at all: the prompt itself was blocked (promptFeedback.blockReason).
    const blocked = isJsonObject(body.promptFeedback) && body.promptFeedback.blockReason !== undefined;
    choices.push({
      index: 0,
      message: { role: 'assistant', content: '' },
      finish_reason: blocked ? 'content_filter' : 'stop',
      logprobs: null,
    });
  }

  const usage = geminiUsage(body.usageMetadata, geminiSearchCount(body.candidates));
  const model = typeof body.modelVersion === 'string' ? bareModel(body.modelVersion) : bareModel(target.model);
  const out: Json = {
    id: typeof body.responseId === 'string' ? body.responseId : '',
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices,
  };
  if (usage) out.usage = usage;
  const parsed: ParsedResponse = { body: out };
  if (usage) parsed.usage = usage;
  if (model !== bareModel(target.model)) parsed.answeredModel = model;
  return parsed;
}
