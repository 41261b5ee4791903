import { embed } from '../answer.js';
import { bearer, type ErrorSpec, type Family, jsonReply, type Reply, type SimRequest } from '../family.js';
import { DEFAULT_DIMENSIONS, openaiFamily } from './openai.js';
import { binaryReply } from './openai-media.js';

const FEATURE_EXTRACTION = /^\/hf-inference\/models\/(.+)\/pipeline\/feature-extraction$/;
/** The model's default task (text-to-image for the image models the simulator serves). */
const MODEL_TASK = /^\/hf-inference\/models\/(.+)$/;
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp']);

const hfError = (status: number, error: string): Reply => jsonReply(status, { error });

/** `{inputs: string | string[]}` → a vector, or a list of vectors (a bare JSON array, as Hugging Face answers). */
function featureExtraction(req: SimRequest, model: string) {
  const body = req.body as { inputs?: unknown } | undefined;
  const inputs = body?.inputs;
  let texts: string[];
  if (typeof inputs === 'string') texts = [inputs];
  else if (Array.isArray(inputs) && inputs.every((x): x is string => typeof x === 'string')) texts = inputs;
  else return hfError(400, 'Input should be a valid string or list of strings');
  const many = Array.isArray(inputs);
  req.model = model;
  return () => {
    const vectors = texts.map((t) => embed(t, DEFAULT_DIMENSIONS));
    return jsonReply(200, many ? vectors : vectors[0]);
  };
}

/**
 * Text-to-image `{inputs: prompt, parameters?: {width, height, …}}` → the image as bytes, in the type `accept` asks
 * (default image/jpeg). The bytes are ASCII (`SIMIMAGE:<model>:<width>x<height>:<prompt>`), so a test can read what
 * was asked after the gateway's base64 round trip.
 */
function textToImage(req: SimRequest, model: string) {
  const body = req.body as { inputs?: unknown; parameters?: Record<string, unknown> } | undefined;
  if (typeof body?.inputs !== 'string' || body.inputs === '') return hfError(400, 'Input should be a valid string');
  const accept = typeof req.headers.accept === 'string' ? req.headers.accept : '';
  const type = IMAGE_TYPES.has(accept) ? accept : 'image/jpeg';
  const width = Number(body.parameters?.width ?? 1024);
  const height = Number(body.parameters?.height ?? 1024);
  req.model = model;
  const bytes = `SIMIMAGE:${model}:${String(width)}x${String(height)}:${body.inputs}`;
  return () => binaryReply(type, bytes, { 'x-inference-provider': 'hf-inference' });
}

/**
 * `/huggingface` is the Inference Providers router: `/v1/…` OpenAI-compatible (chat), and the native
 * `/hf-inference/models/{model}/pipeline/feature-extraction` task and text-to-image at `/hf-inference/models/{model}`. Bearer auth (`{error}` 401 without it).
 */
export const huggingfaceFamily: Family = {
  name: 'huggingface',

  authenticate(req) {
    if (req.sub.startsWith('/v1/')) return openaiFamily.authenticate(req);
    req.key = bearer(req.headers);
    return req.key === undefined ? hfError(401, 'Invalid credentials in Authorization header') : undefined;
  },

  route(req) {
    if (req.sub.startsWith('/v1/')) return openaiFamily.route(req);
    const task = FEATURE_EXTRACTION.exec(req.sub);
    if (req.method === 'POST' && task) return featureExtraction(req, decodeURIComponent(task[1]!));
    const model = MODEL_TASK.exec(req.sub);
    if (req.method === 'POST' && model) return textToImage(req, decodeURIComponent(model[1]!));
    return hfError(404, 'Not Found');
  },

  error(req, spec: ErrorSpec) {
    return req.sub.startsWith('/v1/') ? openaiFamily.error(req, spec) : hfError(spec.status, spec.message ?? 'error');
  },
};
