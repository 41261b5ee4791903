import type { Usage as PriceUsage } from '@pydantic/genai-prices';
import type { ProviderId } from '../providers/provider-ids.js';
import type { Usage } from '../providers/shared/provider-adapter.js';

/**
 * The contract's Usage as `@pydantic/genai-prices` counts it. The package prices a lattice of usage keys where a more
 * specific key is a part of a broader one (`cache_read_tokens` of `input_tokens`, `output_reasoning_tokens` of
 * `output_tokens`); each price applies to what is left of its key once the more specific priced keys are taken out.
 * So `input_tokens` is the whole prompt (cache reads and writes included), and every part must fit in its whole, or
 * the package throws: counts are clamped here, cache first (cached tokens are taken to be text).
 *
 * `requests` is not passed: the package counts one request itself wherever a model has a per-request price.
 */
export function toPriceUsage(provider: ProviderId, usage: Usage): PriceUsage {
  const prompt = count(usage.prompt_tokens);
  const pd = usage.prompt_tokens_details;
  const cd = usage.completion_tokens_details;

  const cacheRead = Math.min(count(pd?.cached_read_tokens), prompt);
  const cacheWrite = Math.min(count(pd?.cached_write_tokens), prompt - cacheRead);
  const uncached = prompt - cacheRead - cacheWrite;
  const inAudio = Math.min(count(pd?.audio_tokens), uncached);
  const inImage = Math.min(count(pd?.image_tokens), uncached - inAudio);

  let output = count(usage.completion_tokens);
  let reasoning = count(cd?.reasoning_tokens);
  let citation = count(cd?.citation_tokens);
  if (provider === 'perplexity') {
    // Perplexity reports reasoning and citation tokens beside completion_tokens, not inside it (its total_tokens is
    // prompt + completion), and bills them; the package's own Perplexity extractor adds them to output the same way.
    output += reasoning + citation;
  } else {
    reasoning = Math.min(reasoning, output);
    citation = Math.min(citation, output - reasoning);
  }
  const outAudio = Math.min(count(cd?.audio_tokens), output);
  const outImage = Math.min(count(cd?.image_tokens), output - outAudio);
  const searches = count(usage.tool_usage?.web_search?.num_requests ?? cd?.num_search_queries);

  const out: PriceUsage = { input_tokens: prompt, output_tokens: output };
  if (cacheRead) out.cache_read_tokens = cacheRead;
  if (cacheWrite) out.cache_write_tokens = cacheWrite;
  if (inAudio) out.input_audio_tokens = inAudio;
  if (inImage) out.input_image_tokens = inImage;
  if (outAudio) out.output_audio_tokens = outAudio;
  if (outImage) out.output_image_tokens = outImage;
  if (reasoning) out.output_reasoning_tokens = reasoning;
  if (citation) out.output_citation_tokens = citation;
  if (searches) out.web_searches = searches;

  // Where two reported parts overlap (audio input that was also a cache read), a model pricing their intersection
  // (`cache_audio_read_mtok`) needs its count, or the package throws. The split is unknown here (the contract has no
  // cached-by-modality counts), so the intersections are zero: cached tokens are text, as clamped above.
  if (cacheRead && inAudio) out.cache_audio_read_tokens = 0;
  if (cacheRead && inImage) out.cache_image_read_tokens = 0;
  if (cacheWrite && inAudio) out.cache_audio_write_tokens = 0;
  if (cacheWrite && inImage) out.cache_image_write_tokens = 0;
  if (reasoning && outAudio) out.output_audio_reasoning_tokens = 0;
  if (reasoning && outImage) out.output_image_reasoning_tokens = 0;
  if (citation && outAudio) out.output_audio_citation_tokens = 0;
  if (citation && outImage) out.output_image_citation_tokens = 0;
  return out;
}

/** A usage count as the package accepts it: finite and not negative (anything else counts as none). */
function count(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
