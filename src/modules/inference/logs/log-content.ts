import { MEDIA_CONTENT_FIELDS, mediaInputOf, mediaOutputOf } from '../media/media-log.js';
import type { InferenceKind, Json } from '../providers/shared/provider-adapter.js';

/** What a log row keeps of a request's body and its answer, before the size cap. */
export interface LoggedContent {
  input: unknown;
  params: Json | null;
  tools: unknown;
  /** The last input message's text, for the list (cut to the column by the writer). */
  summary: string | null;
}

/** Members that are content, routing or transport, not parameters. */
const NOT_PARAMS: ReadonlySet<string> = new Set([
  'model',
  'fallbacks',
  'stream',
  'messages',
  'prompt',
  'input',
  'instructions',
  'tools',
  'documents',
  'query',
  'system',
  ...MEDIA_CONTENT_FIELDS,
]);

const SUMMARY_CHARS = 256;

/** Text of a message content: a string, or the text parts of an array of parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content as unknown[]) {
    if (typeof part === 'string') out += (out ? '\n' : '') + part;
    else if (part && typeof part === 'object') {
      const text = (part as Json).text ?? (part as Json).content;
      if (typeof text === 'string') out += (out ? '\n' : '') + text;
    }
  }
  return out;
}

/** The input of a request body, per kind, with its parameters apart. */
export function inputOf(kind: InferenceKind, body: Json): LoggedContent {
  const params: Json = {};
  for (const [k, v] of Object.entries(body)) if (!NOT_PARAMS.has(k) && v !== undefined) params[k] = v;
  let input: unknown;
  let summary = '';
  switch (kind) {
    case 'chat': {
      input = body.messages;
      const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
      const lastUser = [...messages].reverse().find((m) => m?.role === 'user') ?? messages[messages.length - 1];
      summary = textOf(lastUser?.content);
      break;
    }
    case 'completions':
      input = body.prompt;
      summary = Array.isArray(body.prompt) ? textOf(body.prompt) : typeof body.prompt === 'string' ? body.prompt : '';
      break;
    case 'rerank':
      input = { query: body.query, documents: body.documents };
      summary = typeof body.query === 'string' ? body.query : '';
      break;
    case 'responses':
    case 'count_tokens':
    case 'embeddings': {
      input = body.instructions === undefined ? body.input : { instructions: body.instructions, input: body.input };
      const value = body.input;
      if (typeof value === 'string') summary = value;
      else if (Array.isArray(value)) {
        const last = value[value.length - 1] as unknown;
        summary = typeof last === 'string' ? last : textOf((last as Json | undefined)?.content);
      }
      break;
    }
    case 'speech':
    case 'transcription':
    case 'image_generation':
    case 'image_edit':
    case 'image_variation':
    case 'ocr':
      ({ input, summary } = mediaInputOf(kind, body));
      break;
  }
  return {
    input,
    params: Object.keys(params).length ? params : null,
    tools: body.tools ?? null,
    summary: summary ? summary.slice(0, SUMMARY_CHARS) : null,
  };
}

/** Embeddings are logged as a summary: how many vectors of what size, never the vectors. */
function embeddingSummary(body: Json): Json {
  const data = Array.isArray(body.data) ? (body.data as Json[]) : [];
  const first = data[0]?.embedding;
  const dimensions = Array.isArray(first)
    ? first.length
    : typeof first === 'string'
      ? Math.floor((first.length * 3) / 4 / 4)
      : undefined;
  return { object: 'embeddings_summary', count: data.length, ...(dimensions !== undefined ? { dimensions } : {}) };
}

/** What a unary answer's log keeps: the output and the stop reason. */
export function outputOf(kind: InferenceKind, body: Json): { output: unknown; stopReason: string | null } {
  switch (kind) {
    case 'chat':
    case 'completions': {
      const choices = Array.isArray(body.choices) ? (body.choices as Json[]) : [];
      const outputs = choices.map((c) => (kind === 'chat' ? c.message : { text: c.text }));
      const reason = choices[0]?.finish_reason;
      return {
        output: outputs.length === 1 ? outputs[0] : outputs,
        stopReason: typeof reason === 'string' ? reason : null,
      };
    }
    case 'responses': {
      const incomplete = (body.incomplete_details as Json | undefined)?.reason;
      return {
        output: body.output ?? null,
        stopReason: typeof incomplete === 'string' ? incomplete : typeof body.status === 'string' ? body.status : null,
      };
    }
    case 'embeddings':
      return { output: embeddingSummary(body), stopReason: null };
    case 'rerank':
      return { output: body.results ?? null, stopReason: null };
    case 'count_tokens':
      return { output: { input_tokens: body.input_tokens }, stopReason: null };
    case 'speech':
    case 'transcription':
    case 'image_generation':
    case 'image_edit':
    case 'image_variation':
    case 'ocr':
      return { output: mediaOutputOf(kind, body), stopReason: null };
  }
}

/** The searchable text of a row: input message texts and output texts, joined. */
export function searchTextOf(input: unknown, output: unknown): string {
  const parts: string[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || value === undefined) return;
    if (typeof value === 'string') {
      parts.push(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const v of value) walk(v, depth + 1);
      return;
    }
    if (typeof value === 'object') {
      const o = value as Json;
      for (const key of ['content', 'text', 'query', 'documents', 'input', 'instructions', 'arguments', 'refusal']) {
        if (key in o) walk(o[key], depth + 1);
      }
      if (Array.isArray(o.tool_calls)) for (const call of o.tool_calls as Json[]) walk(call.function, depth + 1);
      if (Array.isArray(o.messages)) walk(o.messages, depth + 1);
    }
  };
  walk(input, 0);
  walk(output, 0);
  return parts.join('\n');
}
