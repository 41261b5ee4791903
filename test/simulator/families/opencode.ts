import type { Family, SimRequest } from '../family.js';
import { anthropicFamily } from './anthropic.js';
import { geminiFamily } from './gemini.js';
import { openaiFamily } from './openai.js';

/** Which real surface a path of OpenCode's host is. */
function surface(req: SimRequest): Family {
  if (req.sub.startsWith('/v1/messages')) return anthropicFamily;
  if (req.sub.startsWith('/v1/models/') && req.sub.includes(':')) return geminiFamily;
  return openaiFamily;
}

/**
 * `/opencode` is OpenCode Zen / Go's host: one key, each model family on its own surface, each checked by its real
 * rules: `/v1/messages` Anthropic (`x-api-key`, `anthropic-version`), `/v1/models/{m}:generateContent` Gemini
 * (`x-goog-api-key`), `/v1/responses` and `/v1/chat/completions` OpenAI (Bearer).
 */
export const opencodeFamily: Family = {
  name: 'opencode',
  authenticate: (req) => surface(req).authenticate(req),
  route: (req) => surface(req).route(req),
  error: (req, spec) => surface(req).error(req, spec),
};
