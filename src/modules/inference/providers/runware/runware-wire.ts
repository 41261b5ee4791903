import { randomUUID } from 'node:crypto';
import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { Json, Usage } from '../shared/provider-adapter.js';
import { asArray, asObject, asString, jsonObjects } from '../shared/wire-json.js';
import { nowSeconds } from '../shared/native-adapter-parts.js';

/** OpenAI image members the task reads under its own names (or not at all); the rest pass through as task fields. */
const OPENAI_IMAGE_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'response_format',
  'output_format',
  'quality',
  'style',
  'user',
  'stream',
  'background',
  'moderation',
  'output_compression',
]);

/** Runware's task parameters → the OpenAI field the caller sent them as (an error names the caller's field). */
const CALLER_FIELDS: Readonly<Record<string, string>> = {
  positivePrompt: 'prompt',
  width: 'size',
  height: 'size',
  numberResults: 'n',
  outputType: 'response_format',
  outputFormat: 'output_format',
  model: 'model',
};

const DEFAULT_SIZE = '1024x1024';

/** `"WxH"` (or `auto`, which is the default size) as Runware's width and height. */
function dimensions(size: unknown): { width: number; height: number } {
  const text = typeof size === 'string' && size !== 'auto' ? size : DEFAULT_SIZE;
  const match = /^(\d+)x(\d+)$/.exec(text);
  if (!match) throw GatewayException.validation('size', 'size must be WIDTHxHEIGHT (e.g. 1024x1024)');
  return { width: Number(match[1]), height: Number(match[2]) };
}

/**
 * OpenAI `images.generate` as Runware's one-task array: `[{taskType: "imageInference", taskUUID, positivePrompt,
 * model, width, height, numberResults, outputType, outputFormat, includeCost: true}]`. `response_format` url (the
 * default) → `URL`, b64_json → `base64Data`; Runware's own task fields (camelCase: `negativePrompt`, `steps`, `seed`,
 * …) are sent as given.
 */
export function runwareImageTasks(body: Json, model: string): Json[] {
  const format = asString(body.response_format) ?? 'url';
  if (format !== 'url' && format !== 'b64_json') {
    throw GatewayException.validation('response_format', 'response_format must be url or b64_json');
  }
  const task: Json = {
    taskType: 'imageInference',
    taskUUID: randomUUID(),
    positivePrompt: body.prompt,
    model,
    ...dimensions(body.size),
    numberResults: body.n ?? 1,
    outputType: format === 'b64_json' ? 'base64Data' : 'URL',
    includeCost: true,
  };
  if (typeof body.output_format === 'string') task.outputFormat = body.output_format.toUpperCase();
  for (const [name, value] of Object.entries(body)) {
    if (!OPENAI_IMAGE_FIELDS.has(name)) task[name] = value;
  }
  return [task];
}

/**
 * `{data: [{taskType, taskUUID, imageURL | imageBase64Data, cost?}]}` → OpenAI's images answer. The per-image costs
 * (USD, sent because the task asked `includeCost`) add up to the usage's cost, which wins over the price table; no
 * tokens are involved.
 */
export function fromRunwareImages(body: Json): { body: Json; usage?: Usage } {
  const errors = jsonObjects(body.errors);
  const images = jsonObjects(body.data).filter((d) => d.taskType === undefined || d.taskType === 'imageInference');
  if (images.length === 0 && errors.length > 0) {
    throw new GatewayException(502, 'upstream_error', asString(errors[0]!.message) ?? 'runware answered no image', {
      reason: 'provider_server_error',
    });
  }
  let cost = 0;
  let costed = false;
  const data = images.map((image) => {
    if (typeof image.cost === 'number') {
      cost += image.cost;
      costed = true;
    }
    const b64 = asString(image.imageBase64Data);
    return b64 !== undefined ? { b64_json: b64 } : { url: asString(image.imageURL) ?? asString(image.imageDataURI) };
  });
  const out: { body: Json; usage?: Usage } = { body: { created: nowSeconds(), data } };
  if (costed) {
    out.usage = {
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      cost: { request_cost: cost, total_cost: cost },
    };
  }
  return out;
}

/** The first of `{errors: [{code, message, parameter, taskUUID}]}`, its parameter named as the caller sent it. */
export function runwareErrorDetail(payload: unknown): { message?: string; code?: string; param?: string } {
  const first = asObject(asArray(asObject(payload)?.errors)?.[0]);
  if (!first) return {};
  const parameter = asString(first.parameter);
  return {
    message: asString(first.message),
    code: asString(first.code),
    param: parameter === undefined ? undefined : (CALLER_FIELDS[parameter] ?? parameter),
  };
}

/** `modelSearch` answers `{data: [{results: [{air, name, …}]}]}`: the AIR ids are the model ids. */
export function runwareModelIds(body: Json): string[] {
  return jsonObjects(body.data).flatMap((task) =>
    jsonObjects(task.results).flatMap((model) => {
      const air = asString(model.air);
      return air ? [air] : [];
    }),
  );
}
