import { bearer, isObj, jsonReply, type ErrorSpec, type Family, type Reply, type SimRequest } from '../family.js';
import { createTask, findTask, readTask } from './sim-tasks.js';

const VERSION = '2024-11-06';
const MODELS: ReadonlySet<string> = new Set(['gen4_image', 'gen4_image_turbo', 'gemini_2.5_flash']);
const RATIOS: ReadonlySet<string> = new Set([
  '1920:1080',
  '1080:1920',
  '1024:1024',
  '1360:768',
  '1080:1080',
  '1168:880',
  '1440:1080',
  '1080:1440',
  '1808:768',
  '2112:912',
  '1280:720',
  '720:1280',
  '720:720',
  '960:720',
  '720:960',
  '1680:720',
]);

/** Video models: the ratios and durations each takes; `text` says whether it makes videos without an image. */
const VIDEO_MODELS: Readonly<
  Record<string, { ratios: readonly string[]; durations: readonly number[]; text: boolean }>
> = {
  gen4_turbo: {
    ratios: ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'],
    durations: [2, 3, 4, 5, 6, 7, 8, 9, 10],
    text: false,
  },
  gen3a_turbo: { ratios: ['1280:768', '768:1280'], durations: [5, 10], text: false },
  veo3: { ratios: ['1280:720', '720:1280'], durations: [8], text: true },
  'veo3.1': { ratios: ['1280:720', '720:1280', '1080:1920', '1920:1080'], durations: [4, 6, 8], text: true },
  'veo3.1_fast': { ratios: ['1280:720', '720:1280', '1080:1920', '1920:1080'], durations: [4, 6, 8], text: true },
};

/** Runway's errors: `{error}`; a body that fails validation adds `issues`. */
function runwayError(status: number, error: string, extra: Record<string, unknown> = {}): Reply {
  return jsonReply(status, { error, ...extra });
}

function invalidBody(path: string, message: string): Reply {
  return runwayError(400, 'Validation of body failed', { issues: [{ path: [path], message }] });
}

/**
 * `/runway`: Runway's developer API. `POST /v1/text_to_image` (`{promptText, ratio, model}`), `POST
 * /v1/image_to_video` (`{model, promptImage, promptText?, ratio, duration}`) and `POST /v1/text_to_video` (Veo models:
 * `{model, promptText, ratio, duration}`; ratios and durations checked per model) answer a task `{id}`;
 * `GET /v1/tasks/{id}` reads it (`PENDING` → `RUNNING` with `progress` → `SUCCEEDED` with `output` URLs, or `FAILED`
 * with `failure` and `failureCode`; scripted by the prompt: see `sim-tasks.ts`). Every call needs Bearer auth and
 * `X-Runway-Version: 2024-11-06`.
 */
export const runwayFamily: Family = {
  name: 'runway',

  authenticate(req: SimRequest) {
    req.key = bearer(req.headers);
    if (req.key === undefined) return runwayError(401, 'Unauthorized: a Bearer API key is required');
    if (req.headers['x-runway-version'] !== VERSION) {
      return runwayError(400, `X-Runway-Version must be set to ${VERSION}`);
    }
    return undefined;
  },

  route(req: SimRequest) {
    if (req.method === 'POST' && req.sub === '/v1/text_to_image') {
      const body = isObj(req.body) ? req.body : {};
      if (typeof body.promptText !== 'string' || body.promptText === '') {
        return invalidBody('promptText', 'Required');
      }
      if (typeof body.model !== 'string' || !MODELS.has(body.model)) return invalidBody('model', 'Invalid model');
      if (typeof body.ratio !== 'string' || !RATIOS.has(body.ratio)) return invalidBody('ratio', 'Invalid ratio');
      req.model = body.model;
      const prompt = body.promptText;
      return () => {
        const task = createTask('', prompt, { model: req.model });
        task.output = [`https://dnznrvs05pmza.cloudfront.net/sim/${task.id}.png`];
        return jsonReply(200, { id: task.id });
      };
    }
    if (req.method === 'POST' && (req.sub === '/v1/image_to_video' || req.sub === '/v1/text_to_video')) {
      const body = isObj(req.body) ? req.body : {};
      const fromImage = req.sub === '/v1/image_to_video';
      const spec = typeof body.model === 'string' ? VIDEO_MODELS[body.model] : undefined;
      if (!spec || (!fromImage && !spec.text)) return invalidBody('model', 'Invalid model');
      if (fromImage) {
        const image = body.promptImage;
        if (typeof image !== 'string' || !/^(https:\/\/|data:image\/)/.test(image)) {
          return invalidBody('promptImage', 'Invalid url or data URI');
        }
      }
      if (!fromImage && (typeof body.promptText !== 'string' || body.promptText === '')) {
        return invalidBody('promptText', 'Required');
      }
      if (typeof body.ratio !== 'string' || !spec.ratios.includes(body.ratio)) {
        return invalidBody('ratio', 'Invalid ratio');
      }
      if (typeof body.duration !== 'number' || !spec.durations.includes(body.duration)) {
        return invalidBody('duration', 'Invalid duration');
      }
      req.model = body.model as string;
      const prompt = typeof body.promptText === 'string' ? body.promptText : '';
      return () => {
        const task = createTask('', prompt, { model: req.model });
        task.output = [`https://dnznrvs05pmza.cloudfront.net/sim/${task.id}.mp4`];
        return jsonReply(200, { id: task.id });
      };
    }
    const read = /^\/v1\/tasks\/([^/]+)$/.exec(req.sub);
    if (req.method === 'GET' && read) {
      const task = findTask(decodeURIComponent(read[1]!));
      if (!task) return runwayError(404, 'Task not found');
      return () => {
        const state = readTask(task);
        const base = { id: task.id, createdAt: task.created };
        if (state === 'pending') {
          const status = task.reads === 1 ? 'PENDING' : 'RUNNING';
          return jsonReply(200, { ...base, status, ...(status === 'RUNNING' ? { progress: 0.5 } : {}) });
        }
        if (state === 'failed' && task.end.kind === 'fail') {
          return jsonReply(200, {
            ...base,
            status: 'FAILED',
            failure: task.end.message,
            failureCode: 'SAFETY.INPUT.TEXT',
          });
        }
        return jsonReply(200, { ...base, status: 'SUCCEEDED', output: task.output });
      };
    }
    return runwayError(404, 'Not found');
  },

  error(_req: SimRequest, spec: ErrorSpec) {
    const status = spec.overloaded ? 503 : spec.status;
    return runwayError(status, spec.message ?? `Request failed with status ${status}`);
  },
};
