import { randomUUID } from 'node:crypto';
import { bearer, type ErrorSpec, type Family, jsonReply, type Reply, type SimRequest } from '../family.js';
import { SIM_PNG_BASE64 } from './openai-media.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the simulator charges per image when a task asks `includeCost` (USD). */
export const RUNWARE_SIM_IMAGE_COST = 0.0013;

interface TaskError {
  code: string;
  message: string;
  parameter?: string;
  taskType?: unknown;
  taskUUID?: unknown;
}

const errorsReply = (status: number, errors: TaskError[], headers: Record<string, string> = {}): Reply =>
  jsonReply(status, { errors }, headers);

/** Runware's checks of an `imageInference` task: the first problem, named by its parameter. */
function invalidTask(task: Obj): TaskError | undefined {
  const fail = (code: string, parameter: string, message: string): TaskError => ({
    code,
    message,
    parameter,
    taskType: task.taskType,
    taskUUID: task.taskUUID,
  });
  if (typeof task.taskUUID !== 'string') return fail('missingTaskUUID', 'taskUUID', 'Missing taskUUID.');
  const prompt = task.positivePrompt;
  if (typeof prompt !== 'string' || prompt.length < 2 || prompt.length > 3000) {
    return fail('invalidPositivePrompt', 'positivePrompt', 'Invalid value for positivePrompt parameter.');
  }
  if (typeof task.model !== 'string') return fail('missingModel', 'model', 'Missing model parameter.');
  for (const side of ['width', 'height'] as const) {
    const v = task[side];
    if (typeof v !== 'number' || v % 64 !== 0 || v < 128 || v > 2048) {
      return fail(`invalid${side[0]!.toUpperCase()}${side.slice(1)}`, side, `Invalid value for ${side} parameter.`);
    }
  }
  return undefined;
}

/** `[{taskType: "imageInference", …}]` → `{data: [{taskType, taskUUID, imageUUID, imageURL | imageBase64Data, cost?}]}`. */
function imageResults(task: Obj): Obj[] {
  const count = typeof task.numberResults === 'number' ? task.numberResults : 1;
  return Array.from({ length: count }, () => {
    const imageUUID = randomUUID();
    const out: Obj = { taskType: 'imageInference', taskUUID: task.taskUUID, imageUUID };
    if (task.outputType === 'base64Data') out.imageBase64Data = SIM_PNG_BASE64;
    else if (task.outputType === 'dataURI') out.imageDataURI = `data:image/png;base64,${SIM_PNG_BASE64}`;
    else out.imageURL = `https://im.runware.ai/image/ws/2/ii/${imageUUID}.png`;
    if (task.includeCost === true) out.cost = RUNWARE_SIM_IMAGE_COST;
    return out;
  });
}

/** `modelSearch`: a small fixed catalogue. */
function modelSearch(task: Obj): Obj {
  const results = [
    { air: 'runware:100@1', name: 'FLUX.1 [schnell]', category: 'checkpoint' },
    { air: 'civitai:4384@128713', name: 'DreamShaper', category: 'checkpoint' },
  ];
  return { taskType: 'modelSearch', taskUUID: task.taskUUID, results, totalResults: results.length };
}

/**
 * `/runware`: Runware's single endpoint, `POST /v1` with a JSON array of tasks (`imageInference`, `modelSearch`),
 * `Authorization: Bearer`. Answers `{data: [...]}`; failures `{errors: [{code, message, parameter, taskType,
 * taskUUID}]}` (400 for a bad task, 401 without a key).
 */
export const runwareFamily: Family = {
  name: 'runware',

  authenticate(req: SimRequest) {
    req.key = bearer(req.headers);
    if (req.key !== undefined) return undefined;
    return errorsReply(401, [{ code: 'missingApiKey', message: 'Missing API key.' }]);
  },

  route(req: SimRequest) {
    if (req.method !== 'POST' || (req.sub !== '/v1' && req.sub !== '/v1/')) {
      return errorsReply(404, [{ code: 'notFound', message: 'Not found.' }]);
    }
    if (!Array.isArray(req.body) || !req.body.every(isObj)) {
      return errorsReply(400, [{ code: 'invalidPayload', message: 'The request body must be an array of tasks.' }]);
    }
    const tasks = req.body;
    for (const task of tasks) {
      if (task.taskType === 'imageInference') {
        const bad = invalidTask(task);
        if (bad) return errorsReply(400, [bad]);
        req.model = task.model as string;
      } else if (task.taskType !== 'modelSearch') {
        return errorsReply(400, [{ code: 'invalidTaskType', message: 'Invalid taskType.', parameter: 'taskType' }]);
      }
    }
    return () =>
      jsonReply(200, {
        data: tasks.flatMap((t) => (t.taskType === 'modelSearch' ? [modelSearch(t)] : imageResults(t))),
      });
  },

  error(_req: SimRequest, spec: ErrorSpec) {
    const status = spec.overloaded ? 503 : spec.status;
    const code = spec.code ?? (status === 429 ? 'rateLimitExceeded' : status >= 500 ? 'internalError' : 'error');
    return errorsReply(status, [{ code, message: spec.message ?? `Request failed with status ${status}` }]);
  },
};
