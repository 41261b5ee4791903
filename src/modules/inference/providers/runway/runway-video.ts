import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { Json } from '../shared/provider-adapter.js';

/**
 * Runway's video models on `/v1/images/generations`: the unified API has no video route (the reference's /v1 list has
 * none), so a video model is asked like an image model and answers its task's output URL (an MP4) in `data[].url`.
 *
 * - With `image` (an https URL or a `data:` URI): `POST /v1/image_to_video` (`promptImage`), every video model.
 * - Without: `POST /v1/text_to_video`, the Veo models only; Gen-3/Gen-4 Turbo need an image (400 naming `image`).
 * - `size` `WIDTHxHEIGHT` → `ratio` `WIDTH:HEIGHT` (default 1280:720); `seconds` (OpenAI's video parameter) or
 *   `duration` → `duration` (default 5 for Gen models, 8 for Veo); `seed`, `audio`, `contentModeration` pass through.
 */

const GEN_MODELS: ReadonlySet<string> = new Set(['gen4_turbo', 'gen3a_turbo']);
const VEO_MODELS: ReadonlySet<string> = new Set(['veo3', 'veo3.1', 'veo3.1_fast']);
/** Runway's own members of a video task that callers may send as they are. */
const PASSED: readonly string[] = ['seed', 'audio', 'contentModeration'];

export const isRunwayVideoModel = (model: string): boolean => GEN_MODELS.has(model) || VEO_MODELS.has(model);

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** `seconds` or `duration` as a whole number of seconds (OpenAI sends `seconds` as a string, e.g. "8"). */
function durationOf(body: Json, model: string): number {
  const param = body.seconds !== undefined ? 'seconds' : 'duration';
  const raw = body[param];
  if (raw === undefined) return VEO_MODELS.has(model) ? 8 : 5;
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalid(param, `${param} must be a whole number of seconds`);
  }
  return value;
}

function ratioOf(size: unknown): string {
  if (size === undefined || size === 'auto') return '1280:720';
  const match = typeof size === 'string' ? /^(\d+)x(\d+)$/.exec(size) : null;
  if (!match) throw invalid('size', 'size must be WIDTHxHEIGHT (a ratio runway takes, e.g. 1280x720) or auto');
  return `${match[1]}:${match[2]}`;
}

function imageOf(image: unknown): string | undefined {
  if (image === undefined) return undefined;
  if (typeof image !== 'string' || !/^(https:\/\/|data:image\/)/.test(image)) {
    throw invalid('image', 'image must be an https URL or a data:image/... URI of the first frame');
  }
  return image;
}

/** The task call of a video model: its path and Runway body. */
export function runwayVideoTask(body: Json, model: string): { path: string; body: Json } {
  if (body.n !== undefined && body.n !== 1) throw invalid('n', 'a runway task makes one video: n must be 1');
  if (body.response_format !== undefined && body.response_format !== 'url') {
    throw invalid('response_format', 'runway answers video URLs only: response_format must be url');
  }
  const image = imageOf(body.image);
  if (!image && !VEO_MODELS.has(model)) {
    throw invalid('image', `${model} makes videos from an image: send image (an https URL or a data: URI)`);
  }
  const out: Json = { model, promptText: body.prompt, ratio: ratioOf(body.size), duration: durationOf(body, model) };
  if (image) out.promptImage = image;
  for (const name of PASSED) if (body[name] !== undefined) out[name] = body[name];
  return { path: image ? '/v1/image_to_video' : '/v1/text_to_video', body: out };
}
