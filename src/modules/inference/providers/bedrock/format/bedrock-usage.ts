import type { Json, Usage } from '../../shared/provider-adapter.js';
import { usageFromOpenAi } from '../../openai/openai-usage.js';

/** The priced usage when the pipeline has it, else the canonical answer's wire usage read back. */
export function usageOf(answer: Json, usage: Usage | undefined): Usage | undefined {
  return usage ?? usageFromOpenAi(answer.usage);
}

/** Input tokens without the cached ones (the canonical `prompt_tokens` includes cache reads and writes). */
export function uncachedInput(usage: Usage): { input: number; cacheRead: number; cacheWrite: number } {
  const cacheRead = usage.prompt_tokens_details?.cached_read_tokens ?? 0;
  const cacheWrite = usage.prompt_tokens_details?.cached_write_tokens ?? 0;
  return { input: Math.max(0, usage.prompt_tokens - cacheRead - cacheWrite), cacheRead, cacheWrite };
}

/** Converse `usage`: cache counts only when there were some, as Bedrock sends them. */
export function converseUsage(usage: Usage | undefined): Json {
  if (!usage) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const { input, cacheRead, cacheWrite } = uncachedInput(usage);
  const out: Json = {
    inputTokens: input,
    outputTokens: usage.completion_tokens,
    totalTokens: input + cacheRead + cacheWrite + usage.completion_tokens,
  };
  if (cacheRead > 0) out.cacheReadInputTokens = cacheRead;
  if (cacheWrite > 0) out.cacheWriteInputTokens = cacheWrite;
  return out;
}

/** A chat finish reason as Converse's `stopReason`. */
export function converseStopReason(finish: unknown): string {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'content_filtered';
    default:
      return 'end_turn';
  }
}
