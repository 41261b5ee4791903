import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { isJsonType } from '../../media/media-answer.js';
import { nowSeconds } from '../shared/native-adapter-parts.js';
import type { Json, MediaAnswer } from '../shared/provider-adapter.js';
import { asString } from '../shared/wire-json.js';

/** Text-to-image parameters passed through as Hugging Face names them. */
const TASK_PARAMETERS = ['negative_prompt', 'num_inference_steps', 'guidance_scale', 'seed', 'scheduler'] as const;
const IMAGE_TYPES: ReadonlySet<string> = new Set(['png', 'jpeg', 'webp']);

/**
 * The text-to-image task's body `{inputs: prompt, parameters: {width, height, …}}` and the `accept` type choosing
 * the image format (`output_format`, default png). The task answers one image as bytes: `n` above 1 and
 * `response_format: url` cannot be served and are the caller's 400.
 */
export function textToImageCall(body: Json): { body: Json; accept: string } {
  if (body.n !== undefined && Number(body.n) !== 1) {
    throw GatewayException.validation('n', 'huggingface text-to-image answers one image per request (n must be 1)');
  }
  if (body.response_format !== undefined && body.response_format !== 'b64_json') {
    throw GatewayException.validation('response_format', 'huggingface images are served as b64_json only');
  }
  const format = asString(body.output_format) ?? 'png';
  if (!IMAGE_TYPES.has(format)) throw GatewayException.validation('output_format', 'output_format: png, jpeg or webp');
  const parameters: Json = {};
  const size = asString(body.size);
  if (size !== undefined && size !== 'auto') {
    const match = /^(\d+)x(\d+)$/.exec(size);
    if (!match) throw GatewayException.validation('size', 'size must be WIDTHxHEIGHT (e.g. 1024x1024)');
    parameters.width = Number(match[1]);
    parameters.height = Number(match[2]);
  }
  for (const name of TASK_PARAMETERS) if (body[name] !== undefined) parameters[name] = body[name];
  return { body: { inputs: body.prompt, parameters }, accept: `image/${format}` };
}

/** The image bytes as OpenAI's images answer (`data[{b64_json}]`); the log keeps its base64 length, not the image. */
export function fromTextToImage(answer: MediaAnswer): Json {
  if (isJsonType(answer.contentType)) {
    throw new GatewayException(502, 'upstream_error', 'huggingface answered JSON instead of an image', {
      reason: 'provider_server_error',
    });
  }
  return { created: nowSeconds(), data: [{ b64_json: answer.bytes.toString('base64') }] };
}
