import { countWords } from '../answer.js';
import { bearer, isObj, jsonReply, type ErrorSpec, type Family, type Reply, type SimRequest } from '../family.js';
import { createTask, findTask, readTask, type SimTask } from './sim-tasks.js';

const PROBLEM = { 'content-type': 'application/problem+json' };

/** Replicate's errors: problem details `{title, detail, status}`. */
function problem(status: number, title: string, detail: string, headers: Record<string, string> = {}): Reply {
  return jsonReply(status, { title, detail, status }, { ...headers, ...PROBLEM });
}

/**
 * Image models by name (FLUX, SDXL, ...) or, for a pinned version whose name the simulator cannot know, by an image
 * input; every other model is a language model answering tokens.
 */
const isImageModel = (model: string, input: Record<string, unknown>) =>
  /flux|sdxl|diffusion|image|recraft/i.test(model) ||
  ['num_outputs', 'aspect_ratio', 'width', 'height'].some((field) => field in input);

function outputOf(model: string, id: string, input: Record<string, unknown>): { output: unknown; metrics: unknown } {
  const prompt = typeof input.prompt === 'string' ? input.prompt : '';
  if (isImageModel(model, input)) {
    const n = typeof input.num_outputs === 'number' ? input.num_outputs : 1;
    const output = Array.from({ length: n }, (_, i) => `https://replicate.delivery/sim/${id}/out-${i}.webp`);
    return { output, metrics: { predict_time: 0.5 } };
  }
  const tokens = `echo: ${prompt}`.split(/(?= )/);
  const system = typeof input.system_prompt === 'string' ? input.system_prompt : '';
  const metrics = {
    input_token_count: countWords(prompt) + countWords(system),
    output_token_count: tokens.length,
    predict_time: 0.5,
  };
  return { output: tokens, metrics };
}

/** A prediction as Replicate renders it, at `status`. */
function prediction(req: SimRequest, task: SimTask, status: string): Record<string, unknown> {
  const { model, version, input, output, metrics } = task.output as Record<string, unknown>;
  const url = `http://${req.headers.host ?? 'localhost'}/replicate/v1/predictions/${task.id}`;
  const done = status === 'succeeded';
  return {
    id: task.id,
    model,
    version,
    input,
    logs: '',
    output: done ? output : null,
    data_removed: false,
    error: status === 'failed' && task.end.kind === 'fail' ? task.end.message : null,
    status,
    created_at: task.created,
    ...(done ? { completed_at: new Date().toISOString(), metrics } : {}),
    urls: { get: url, cancel: `${url}/cancel`, stream: `${url}/stream`, web: `https://replicate.com/p/${task.id}` },
  };
}

/** `POST /v1/models/{owner}/{name}/predictions` or `/v1/predictions` (`version`): a prediction, 201. */
function create(req: SimRequest, model: string, version: string | undefined) {
  const body = isObj(req.body) ? req.body : {};
  const input = isObj(body.input) ? body.input : undefined;
  if (!input || typeof input.prompt !== 'string') {
    return jsonReply(
      422,
      {
        title: 'Input validation failed',
        detail: '- input: prompt is required',
        status: 422,
        invalid_fields: [{ type: 'required', field: 'input', description: 'prompt is required' }],
      },
      PROBLEM,
    );
  }
  req.model = model;
  return () => {
    const task = createTask('', input.prompt as string, { model, version: version ?? 'sim-version', input });
    Object.assign(task.output as object, outputOf(model, task.id, input));
    return jsonReply(201, prediction(req, task, 'starting'));
  };
}

/**
 * `/replicate`: Replicate's HTTP API. Predictions are created by `POST /v1/models/{owner}/{name}/predictions` or
 * `POST /v1/predictions` (`{version, input}`) and read by `GET /v1/predictions/{id}` (`starting` → `processing` →
 * `succeeded` | `failed`, scripted by the prompt: see `sim-tasks.ts`). Image models (name with flux, sdxl,
 * diffusion, image) output `num_outputs` URLs; other models output `echo: <prompt>` as a token array with
 * `metrics.input_token_count` / `output_token_count`. `GET /v1/models` lists two models. Bearer auth.
 */
export const replicateFamily: Family = {
  name: 'replicate',

  authenticate(req: SimRequest) {
    const auth = req.headers.authorization;
    req.key = bearer(req.headers) ?? (auth?.startsWith('Token ') ? auth.slice(6).trim() || undefined : undefined);
    if (req.key !== undefined) return undefined;
    return problem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
  },

  route(req: SimRequest) {
    const models = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(req.sub);
    if (req.method === 'POST' && models) {
      return create(req, `${decodeURIComponent(models[1]!)}/${decodeURIComponent(models[2]!)}`, undefined);
    }
    if (req.method === 'POST' && req.sub === '/v1/predictions') {
      const body = isObj(req.body) ? req.body : {};
      if (typeof body.version !== 'string') return problem(422, 'Input validation failed', '- version is required');
      return create(req, 'sim/versioned-model', body.version);
    }
    const read = /^\/v1\/predictions\/([^/]+)$/.exec(req.sub);
    if (req.method === 'GET' && read) {
      const task = findTask(decodeURIComponent(read[1]!));
      if (!task) return problem(404, 'Not found', 'The requested resource could not be found.');
      req.model = (task.output as { model: string }).model;
      return () => {
        const state = readTask(task);
        return jsonReply(200, prediction(req, task, state === 'pending' ? 'processing' : state));
      };
    }
    if (req.method === 'GET' && req.sub === '/v1/models') {
      return () =>
        jsonReply(200, {
          next: null,
          previous: null,
          results: [
            { owner: 'black-forest-labs', name: 'flux-schnell', visibility: 'public' },
            { owner: 'meta', name: 'meta-llama-3-8b-instruct', visibility: 'public' },
          ],
        });
    }
    return problem(404, 'Not found', 'The requested resource could not be found.');
  },

  error(_req: SimRequest, spec: ErrorSpec) {
    const status = spec.overloaded ? 503 : spec.status;
    const title = status === 429 ? 'Request was throttled.' : status >= 500 ? 'Internal server error' : 'Error';
    return problem(status, title, spec.message ?? `Request failed with status ${status}`, {
      ...(status === 429 ? { 'retry-after': String(Math.ceil((spec.hintMs ?? 1000) / 1000)) } : {}),
    });
  },
};
