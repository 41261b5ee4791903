import { usageFromResponses } from '../providers/openai/openai-usage.js';
import type { Usage } from '../providers/shared/provider-adapter.js';

type Obj = Record<string, unknown>;

function object(value: unknown): Obj | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The token usage of a media answer (gpt-image-1 images, gpt-4o-transcribe transcripts: `input_tokens`,
 * `output_tokens`, `input_tokens_details.{text,image,audio}_tokens`). A duration-only usage (whisper-1:
 * `{ type: "duration", seconds }`) and OCR's page counts are not tokens: no usage then.
 */
export function mediaUsage(raw: unknown): Usage | undefined {
  const o = object(raw);
  if (!o || o.type === 'duration') return undefined;
  const usage = usageFromResponses(o);
  if (!usage) return undefined;
  const input = object(o.input_tokens_details) ?? object(o.input_token_details) ?? {};
  const details = {
    text_tokens: count(input.text_tokens),
    image_tokens: count(input.image_tokens),
    audio_tokens: count(input.audio_tokens),
  };
  const present = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));
  if (Object.keys(present).length > 0) usage.prompt_tokens_details = { ...usage.prompt_tokens_details, ...present };
  return usage;
}
