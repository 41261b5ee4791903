import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { geminiUsage } from './gemini-response.js';
import { bareModel } from './gemini-wire.js';
import { nowSeconds } from '../shared/native-adapter-parts.js';
import type { Json, ParsedResponse, Usage } from '../shared/provider-adapter.js';
import { asString, isJsonObject, jsonObjects } from '../shared/wire-json.js';

/**
 * `/v1/images/generations` on Google's image models, shared by the Gemini API and Vertex AI (same bodies, same
 * answers; only the URL and the auth differ):
 *
 * - Imagen (`imagen-*`): `models/{m}:predict` with `{instances: [{prompt}], parameters: {sampleCount, aspectRatio}}`,
 *   answered `{predictions: [{bytesBase64Encoded, mimeType}]}`; no token usage.
 * - Gemini image models (`gemini-*-image*`): `generateContent` with `responseModalities: ["TEXT", "IMAGE"]`, answered
 *   with `inlineData` parts; usage from `usageMetadata`.
 *
 * Both answer image bytes only, so the answer is OpenAI's `b64_json` shape and `response_format: url` is refused.
 */

/** Aspect ratios both families take, as width / height; OpenAI's `size` (`WIDTHxHEIGHT`) maps to the nearest. */
const ASPECT_RATIOS: ReadonlyArray<readonly [string, number]> = [
  ['1:1', 1],
  ['3:4', 3 / 4],
  ['4:3', 4 / 3],
  ['9:16', 9 / 16],
  ['16:9', 16 / 9],
];
/** The most images one Imagen call makes. */
const MAX_IMAGEN_SAMPLES = 4;

export type GoogleImageCall = { method: 'predict' | 'generateContent'; body: Json };

export const isImagenModel = (model: string): boolean => bareModel(model).startsWith('imagen-');

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/**
 * `size` → the nearest aspect ratio Google takes (OpenAI's 1792x1024 is 16:9, 1024x1536 is 3:4); absent or `auto`:
 * the model's default (1:1).
 */
function aspectRatioOf(size: unknown): string | undefined {
  if (size === undefined || size === 'auto') return undefined;
  const match = typeof size === 'string' ? /^(\d+)x(\d+)$/.exec(size) : null;
  const [w, h] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (w <= 0 || h <= 0) throw invalid('size', 'size must be WIDTHxHEIGHT (for example 1024x1024) or auto');
  const wanted = Math.log(w / h);
  let best = ASPECT_RATIOS[0]!;
  for (const ratio of ASPECT_RATIOS) {
    if (Math.abs(Math.log(ratio[1]) - wanted) < Math.abs(Math.log(best[1]) - wanted)) best = ratio;
  }
  return best[0];
}

/** The OpenAI image request → Imagen's `:predict` or a Gemini image model's `:generateContent`. */
export function toGoogleImageCall(body: Json, model: string): GoogleImageCall {
  if (typeof body.prompt !== 'string' || body.prompt === '') throw invalid('prompt', 'prompt must be a string');
  if (body.response_format !== undefined && body.response_format !== 'b64_json') {
    throw invalid('response_format', 'Google image models answer image bytes only: response_format must be b64_json');
  }
  const aspectRatio = aspectRatioOf(body.size);
  const n = body.n ?? 1;
  if (isImagenModel(model)) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_IMAGEN_SAMPLES) {
      throw invalid('n', `n must be an integer from 1 to ${MAX_IMAGEN_SAMPLES} for Imagen models`);
    }
    const parameters: Json = { sampleCount: n };
    if (aspectRatio) parameters.aspectRatio = aspectRatio;
    return { method: 'predict', body: { instances: [{ prompt: body.prompt }], parameters } };
  }
  if (n !== 1) throw invalid('n', 'a Gemini image model makes one image per request: n must be 1');
  const generationConfig: Json = { responseModalities: ['TEXT', 'IMAGE'] };
  if (aspectRatio) generationConfig.imageConfig = { aspectRatio };
  return {
    method: 'generateContent',
    body: { contents: [{ role: 'user', parts: [{ text: body.prompt }] }], generationConfig },
  };
}

/** Contract usage → the usage object of OpenAI's images answer (gpt-image-1's shape). */
function imagesWireUsage(usage: Usage): Json {
  const details: Json = {};
  const prompt = usage.prompt_tokens_details;
  if (prompt?.text_tokens !== undefined) details.text_tokens = prompt.text_tokens;
  if (prompt?.image_tokens !== undefined) details.image_tokens = prompt.image_tokens;
  const out: Json = {
    input_tokens: usage.prompt_tokens,
    output_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
  };
  if (Object.keys(details).length > 0) out.input_tokens_details = details;
  return out;
}

/** A predict or generateContent answer → `{created, data: [{b64_json}], usage?}`. */
export function fromGoogleImageAnswer(body: Json, model: string): ParsedResponse {
  if (isImagenModel(model)) {
    const data = jsonObjects(body.predictions).flatMap((p) => {
      const bytes = asString(p.bytesBase64Encoded);
      return bytes ? [{ b64_json: bytes }] : [];
    });
    return { body: { created: nowSeconds(), data } };
  }
  const candidates = jsonObjects(body.candidates);
  const parts = candidates.flatMap((c) => (isJsonObject(c.content) ? jsonObjects(c.content.parts) : []));
  const data = parts.flatMap((part) => {
    const inline = isJsonObject(part.inlineData) ? part.inlineData : undefined;
    const bytes = asString(inline?.data);
    return bytes ? [{ b64_json: bytes }] : [];
  });
  const out: Json = { created: nowSeconds(), data };
  const usage = geminiUsage(body.usageMetadata);
  if (usage) out.usage = imagesWireUsage(usage);
  return usage ? { body: out, usage } : { body: out };
}
