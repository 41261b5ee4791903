import { countWords, newId, textOf, type Prompt, type UsageNumbers } from '../answer.js';
import { type ErrorSpec, hintHeaders, isObj, jsonReply, type Reply, type SimRequest } from '../family.js';

/** Shared by /openai and /azure: they differ in URLs, auth, headers and error bodies, not in payloads. */
export type Flavor = 'openai' | 'azure';

type Obj = Record<string, unknown>;

const OPENAI_SUCCESS: Readonly<Record<string, string>> = {
  'openai-version': '2020-10-01',
  'openai-processing-ms': '1',
  'x-ratelimit-limit-requests': '10000',
  'x-ratelimit-remaining-requests': '9999',
  'x-ratelimit-reset-requests': '6ms',
  'x-ratelimit-limit-tokens': '30000000',
  'x-ratelimit-remaining-tokens': '29999000',
  'x-ratelimit-reset-tokens': '2ms',
};
const AZURE_SUCCESS: Readonly<Record<string, string>> = {
  'x-ms-region': 'East US',
  'x-ratelimit-remaining-requests': '999',
  'x-ratelimit-remaining-tokens': '99000',
};

export function successHeaders(flavor: Flavor): Record<string, string> {
  if (flavor === 'openai') return { ...OPENAI_SUCCESS, 'x-request-id': newId('req_') };
  const id = newId('');
  return { ...AZURE_SUCCESS, 'x-request-id': id, 'apim-request-id': id };
}

/** OpenAI's `{type, code, message}` by status; Azure keeps the message and uses the status as `code`. */
const OPENAI_ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: {
    type: 'invalid_request_error',
    code: 'model_not_allowed',
    message: 'You are not allowed to sample from this model.',
  },
  404: {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: 'The model does not exist or you do not have access to it.',
  },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  500: {
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request. Sorry about that!',
  },
  502: { type: 'server_error', code: null, message: 'Bad gateway.' },
  503: { type: 'server_error', code: null, message: 'The server is overloaded or not ready yet.' },
  504: { type: 'server_error', code: null, message: 'Gateway timeout.' },
};

export function openaiError(flavor: Flavor, spec: ErrorSpec, param: string | null = null): Reply {
  const status = spec.overloaded ? 503 : spec.status;
  const known = OPENAI_ERRORS[status] ?? {
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
    message: `Request failed with status ${status}.`,
  };
  let { type, code } = known;
  if (spec.code === 'insufficient_quota') type = 'insufficient_quota';
  if (spec.code !== undefined) code = spec.code;
  const message = spec.message ?? known.message;
  const headers: Record<string, string> = { ...hintHeaders(spec.hint ?? defaultHint(flavor), spec.hintMs ?? 1000) };
  if (flavor === 'openai') {
    headers['x-request-id'] = newId('req_');
    if (status === 429) {
      headers['x-ratelimit-remaining-requests'] = '0';
      headers['x-ratelimit-reset-requests'] = `${Math.max(1, Math.ceil((spec.hintMs ?? 1000) / 1000))}s`;
    }
    return jsonReply(status, { error: { message, type, param, code } }, headers);
  }
  const id = newId('');
  headers['x-request-id'] = id;
  headers['apim-request-id'] = id;
  const error: Obj = { code: spec.code ?? String(status), message };
  if (status === 400) Object.assign(error, { type, param });
  return jsonReply(status, { error }, headers);
}

function defaultHint(flavor: Flavor) {
  return flavor === 'azure' ? ('retry-after-ms' as const) : ('none' as const);
}

/** The 400s of a bad body, as OpenAI words them. */
export function badBody(flavor: Flavor, req: SimRequest, need: string[]): Reply | undefined {
  if (req.badJson || !isObj(req.body)) {
    return openaiError(flavor, {
      status: 400,
      message:
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
    });
  }
  for (const field of need) {
    if (req.body[field] === undefined) {
      return openaiError(
        flavor,
        {
          status: 400,
          message: field === 'model' ? 'you must provide a model parameter' : `Missing required parameter: '${field}'.`,
          code: 'missing_required_parameter',
        },
        field,
      );
    }
  }
  return undefined;
}

export function chatUsage(u: UsageNumbers): Obj {
  const prompt = u.input + u.cacheRead + u.cacheWrite;
  const completion = u.output + u.reasoning;
  const promptDetails: Obj = { cached_tokens: u.cacheRead, audio_tokens: 0 };
  if (u.cacheWrite > 0) promptDetails.cache_write_tokens = u.cacheWrite;
  const usage: Obj = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: {
      reasoning_tokens: u.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
  // Perplexity's extras, and its cost object / OpenRouter's numeric cost.
  if (u.citation > 0) usage.citation_tokens = u.citation;
  if (u.webSearch > 0) usage.num_search_queries = u.webSearch;
  if (u.cost !== undefined) usage.cost = u.cost;
  return usage;
}

function maxOf(...values: unknown[]): number | undefined {
  for (const v of values) if (typeof v === 'number') return v;
  return undefined;
}

/** Chat completions: messages, tools (`function.name`, legacy `functions`), max tokens. */
export function chatPrompt(body: Obj): Prompt {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  let inputWords = 0;
  let lastUserText = '';
  for (const m of messages) {
    if (!isObj(m)) continue;
    const text = textOf(m.content);
    inputWords += countWords(text);
    if (m.role === 'user' || m.role === 'tool') lastUserText = text;
  }
  const last = messages[messages.length - 1];
  const tools: string[] = [];
  if (Array.isArray(body.tools)) {
    for (const t of body.tools) if (isObj(t) && isObj(t.function)) tools.push(String(t.function.name));
  }
  if (Array.isArray(body.functions)) for (const f of body.functions) if (isObj(f)) tools.push(String(f.name));
  return {
    lastUserText,
    inputWords,
    tools,
    mayCallTools: isObj(last) && last.role === 'user',
    maxTokens: maxOf(body.max_completion_tokens, body.max_tokens),
    model: String(body.model),
  };
}

/** Legacy completions: `prompt` is a string or a list of strings. */
export function completionPrompt(body: Obj): Prompt {
  const text = textOf(Array.isArray(body.prompt) ? body.prompt.filter((p) => typeof p === 'string') : body.prompt);
  return {
    lastUserText: text,
    inputWords: countWords(text),
    tools: [],
    mayCallTools: false,
    maxTokens: maxOf(body.max_tokens),
    model: String(body.model),
  };
}

/** Responses: `input` is a string or items (messages, function_call_output, ...); `instructions` count as input. */
export function responsesPrompt(body: Obj): Prompt {
  let inputWords = typeof body.instructions === 'string' ? countWords(body.instructions) : 0;
  let lastUserText = '';
  let mayCallTools = false;
  if (typeof body.input === 'string') {
    lastUserText = body.input;
    inputWords += countWords(body.input);
    mayCallTools = true;
  } else if (Array.isArray(body.input)) {
    for (const item of body.input) {
      if (!isObj(item)) continue;
      if (item.type === 'function_call_output') {
        lastUserText = textOf(item.output);
        inputWords += countWords(lastUserText);
        mayCallTools = false;
      } else if (item.role !== undefined) {
        const text = textOf(item.content);
        inputWords += countWords(text);
        if (item.role === 'user') {
          lastUserText = text;
          mayCallTools = true;
        } else mayCallTools = false;
      }
    }
  }
  const tools: string[] = [];
  if (Array.isArray(body.tools)) {
    for (const t of body.tools) if (isObj(t) && t.type === 'function' && typeof t.name === 'string') tools.push(t.name);
  }
  return {
    lastUserText,
    inputWords,
    tools,
    mayCallTools,
    maxTokens: maxOf(body.max_output_tokens),
    model: String(body.model),
  };
}

/** Azure's content filter annotations (its chat answers carry them; SDKs ignore them, parsers must too). */
export const AZURE_FILTER_RESULTS = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};
export const AZURE_PROMPT_FILTER = [{ prompt_index: 0, content_filter_results: AZURE_FILTER_RESULTS }];
