import { COST_FIELDS, COST_PART_FIELDS } from '../shared/cost-fields.js';
import type { Cost, Json, Usage } from '../shared/provider-adapter.js';
import { definedMembers, asObject as object } from '../shared/wire-json.js';

/**
 * OpenAI-family usage ↔ the contract's Usage object (inference.md §2.7). Reading is lenient (every field optional,
 * provider extras understood); writing gives what the OpenAI SDKs read besides our own contract fields.
 */

type PromptDetails = NonNullable<Usage['prompt_tokens_details']>;
type CompletionDetails = NonNullable<Usage['completion_tokens_details']>;

/** A token count: a finite, non-negative number (rounded; some providers send floats). */
function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;
}

function money(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * A provider-sent cost: OpenRouter's `usage.cost` number is the total; Perplexity's `cost` object already has the
 * contract's shape. Parts without a total are summed, so `total_cost` is always set when a cost is.
 */
export function costFromProvider(raw: unknown): Cost | undefined {
  const total = money(raw);
  if (total !== undefined) return { total_cost: total };
  const o = object(raw);
  if (!o) return undefined;
  const cost: Cost = {};
  for (const field of COST_FIELDS) {
    const v = money(o[field]);
    if (v !== undefined) cost[field] = v;
  }
  if (Object.keys(cost).length === 0) return undefined;
  if (cost.total_cost === undefined) {
    cost.total_cost = COST_PART_FIELDS.reduce((sum, field) => sum + (cost[field] ?? 0), 0);
  }
  return cost;
}

/**
 * The three totals (a missing total is the sum of the other two), or undefined when the provider sent none of them
 * (e.g. `usage: null` on a non-final stream chunk).
 */
function totals(prompt?: number, completion?: number, total?: number): Usage | undefined {
  if (prompt === undefined && completion === undefined && total === undefined) return undefined;
  return {
    prompt_tokens: prompt ?? 0,
    completion_tokens: completion ?? 0,
    total_tokens: total ?? (prompt ?? 0) + (completion ?? 0),
  };
}

/** Web search calls: our own field, Perplexity's `num_search_queries` (top level or in the details). */
function webSearches(o: Json, completion: Json): number | undefined {
  const web = object(object(o.tool_usage)?.web_search);
  return count(web?.num_requests) ?? count(o.num_search_queries) ?? count(completion.num_search_queries);
}

/**
 * Chat, completions and embeddings usage (OpenAI and every OpenAI-compatible provider) → contract Usage.
 * `prompt_tokens_details.cached_tokens` is the cache read (DeepSeek: `prompt_cache_hit_tokens`); `cache_write_tokens`
 * (OpenRouter and newer OpenAI-shaped providers) the cache write; both are already inside `prompt_tokens`.
 * Perplexity's `citation_tokens`, `num_search_queries`, `reasoning_tokens` and `cost` sit at the top of its usage.
 * Undefined when the value carries no token count at all (e.g. `usage: null` on a non-final stream chunk).
 */
export function usageFromOpenAi(raw: unknown): Usage | undefined {
  const o = object(raw);
  if (!o) return undefined;
  const usage = totals(count(o.prompt_tokens), count(o.completion_tokens), count(o.total_tokens));
  if (!usage) return undefined;

  const pd = object(o.prompt_tokens_details) ?? {};
  const cd = object(o.completion_tokens_details) ?? {};
  const searches = webSearches(o, cd);
  const promptDetails = definedMembers<PromptDetails>({
    text_tokens: count(pd.text_tokens),
    audio_tokens: count(pd.audio_tokens),
    image_tokens: count(pd.image_tokens),
    cached_read_tokens: count(pd.cached_read_tokens) ?? count(pd.cached_tokens) ?? count(o.prompt_cache_hit_tokens),
    cached_write_tokens:
      count(pd.cached_write_tokens) ?? count(pd.cache_write_tokens) ?? count(pd.cache_creation_tokens),
  });
  if (promptDetails) usage.prompt_tokens_details = promptDetails;
  const completionDetails = definedMembers<CompletionDetails>({
    text_tokens: count(cd.text_tokens),
    accepted_prediction_tokens: count(cd.accepted_prediction_tokens),
    audio_tokens: count(cd.audio_tokens),
    citation_tokens: count(cd.citation_tokens) ?? count(o.citation_tokens),
    num_search_queries: searches,
    reasoning_tokens: count(cd.reasoning_tokens) ?? count(o.reasoning_tokens),
    image_tokens: count(cd.image_tokens),
    rejected_prediction_tokens: count(cd.rejected_prediction_tokens),
  });
  if (completionDetails) usage.completion_tokens_details = completionDetails;
  if (searches !== undefined) usage.tool_usage = { web_search: { num_requests: searches } };
  const cost = costFromProvider(o.cost);
  if (cost) usage.cost = cost;
  return usage;
}

/**
 * Responses API usage (`input_tokens`, `output_tokens`, their details) → contract Usage. `output`, when given, is the
 * response's output items: each `web_search_call` is one billable web search.
 */
export function usageFromResponses(raw: unknown, output?: unknown): Usage | undefined {
  const o = object(raw);
  if (!o) return undefined;
  const usage = totals(count(o.input_tokens), count(o.output_tokens), count(o.total_tokens));
  if (!usage) return undefined;

  const id = object(o.input_tokens_details) ?? {};
  const od = object(o.output_tokens_details) ?? {};
  const promptDetails = definedMembers<PromptDetails>({
    cached_read_tokens: count(id.cached_tokens),
    cached_write_tokens: count(id.cache_write_tokens),
  });
  if (promptDetails) usage.prompt_tokens_details = promptDetails;
  const searches = Array.isArray(output) ? output.filter((item) => object(item)?.type === 'web_search_call').length : 0;
  const completionDetails = definedMembers<CompletionDetails>({
    reasoning_tokens: count(od.reasoning_tokens),
    num_search_queries: searches > 0 ? searches : undefined,
  });
  if (completionDetails) usage.completion_tokens_details = completionDetails;
  if (searches > 0) usage.tool_usage = { web_search: { num_requests: searches } };
  const cost = costFromProvider(o.cost);
  if (cost) usage.cost = cost;
  return usage;
}

/** Contract Usage as sent on chat, completions and embeddings bodies. */
export interface OpenAiWireUsage extends Omit<Usage, 'prompt_tokens_details'> {
  prompt_tokens_details?: PromptDetails & {
    /** OpenAI SDK name of the cache read (= cached_read_tokens). */
    cached_tokens?: number;
    /** Name OpenAI-shaped SDKs read for the cache write (= cached_write_tokens). */
    cache_write_tokens?: number;
  };
}

/**
 * The contract Usage plus the names the OpenAI SDKs read (`prompt_tokens_details.cached_tokens`,
 * `prompt_tokens_details.cache_write_tokens`), so both our clients and stock OpenAI clients find the cache terms.
 */
export function toOpenAiWireUsage(usage: Usage): OpenAiWireUsage {
  const details = usage.prompt_tokens_details;
  if (!details) return { ...usage };
  const wireDetails: NonNullable<OpenAiWireUsage['prompt_tokens_details']> = { ...details };
  if (details.cached_read_tokens !== undefined) wireDetails.cached_tokens = details.cached_read_tokens;
  if (details.cached_write_tokens !== undefined) wireDetails.cache_write_tokens = details.cached_write_tokens;
  return { ...usage, prompt_tokens_details: wireDetails };
}

/** Usage as the Responses API sends it (every member the OpenAI SDK declares required is present). */
export interface ResponsesWireUsage {
  input_tokens: number;
  /** Both cache terms always present (0 when none): the openai SDK declares them as numbers. */
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  /** The cost, when known (provider-sent or priced by the gateway). */
  cost?: Cost;
}

export function toResponsesWireUsage(usage: Usage): ResponsesWireUsage {
  const wire: ResponsesWireUsage = {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: {
      cached_tokens: usage.prompt_tokens_details?.cached_read_tokens ?? 0,
      cache_write_tokens: usage.prompt_tokens_details?.cached_write_tokens ?? 0,
    },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens,
  };
  if (usage.cost) wire.cost = usage.cost;
  return wire;
}
