import { randomBytes } from 'node:crypto';
import type { AnswerKnobs } from './types.js';

/**
 * The family-independent model: what the simulated model answers to a request. Families extract a Prompt from
 * their wire body and render the Answer in their own shapes.
 *
 * Rules: the answer is `echo: <last user text>`; one token per word. When the request offers tools and the last
 * user turn says `call <tool>` (optionally followed by a JSON object of arguments, `call get_weather {"city":"Paris"}`),
 * the answer is a call of each tool so named, in text order, and no text. A max-tokens limit below the answer's word
 * count truncates it (finish reason `length`). A step's `tool_calls` knob scripts the calls instead.
 */

export interface Prompt {
  /** Text of the last user turn (tool results count as text). */
  lastUserText: string;
  /** Words in all text of the request (system, messages, tool results). */
  inputWords: number;
  /** Names of the offered tools. */
  tools: readonly string[];
  /** The last turn is the user's own text, not a tool result: tools may be called. */
  mayCallTools: boolean;
  maxTokens?: number;
  model: string;
}

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text. */
  arguments: string;
}

export interface UsageNumbers {
  /** Uncached input. */
  input: number;
  /** Visible output (reasoning not included). */
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  webSearch: number;
  citation: number;
  cost?: number | Record<string, number>;
}

export interface Answer {
  model: string;
  text: string;
  /** The text in stream-sized pieces (a word each, with its leading space); joined they are `text`. */
  pieces: string[];
  toolCalls: ToolCall[];
  finish: 'stop' | 'length' | 'tool_calls';
  usage: UsageNumbers;
}

// Ids: a random boot prefix and a counter, unique per process and cheap (no per-request entropy).
const BOOT = randomBytes(6).toString('hex');
let counter = 0;
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}${BOOT}${counter.toString(16).padStart(10, '0')}`;
}

export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 13 || c === 9;
    if (!space && !inWord) words += 1;
    inWord = !space;
  }
  return words;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a content value in any family's shape: a string, parts with `text`, nested `content` or `parts`. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let out = '';
    for (const part of content) {
      const t = textOf(part);
      if (t !== '') out = out === '' ? t : `${out} ${t}`;
    }
    return out;
  }
  if (isObj(content)) {
    if (typeof content.text === 'string') return content.text;
    if (content.content !== undefined) return textOf(content.content);
    if (content.parts !== undefined) return textOf(content.parts);
    if (isObj(content.functionResponse)) return JSON.stringify(content.functionResponse.response ?? {});
  }
  return '';
}

/** End index (exclusive) of the JSON object starting at `start` (`text[start] === '{'`), or -1. */
function jsonObjectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth += 1;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

function isNameChar(c: number): boolean {
  // letters, digits, _ - . (tool names are [a-zA-Z0-9_-.])
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46;
}

function toolCallsFor(text: string, tools: readonly string[]): ToolCall[] {
  const calls: ToolCall[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf('call ', from);
    if (at < 0) return calls;
    let end = at + 5;
    while (end < text.length && isNameChar(text.charCodeAt(end))) end += 1;
    const name = text.slice(at + 5, end);
    from = end;
    if (!tools.includes(name)) continue;
    let args = '{}';
    let i = end;
    while (text[i] === ' ') i += 1;
    if (text[i] === '{') {
      const close = jsonObjectEnd(text, i);
      if (close > 0) {
        try {
          args = JSON.stringify(JSON.parse(text.slice(i, close)));
          from = close;
        } catch {
          // not JSON: empty arguments
        }
      }
    }
    calls.push({ id: newId('call_'), name, arguments: args });
  }
}

export function buildAnswer(prompt: Prompt, knobs: AnswerKnobs): Answer {
  const toolCalls = knobs.tool_calls
    ? knobs.tool_calls.map((c) => ({ id: newId('call_'), name: c.name, arguments: JSON.stringify(c.arguments ?? {}) }))
    : prompt.mayCallTools && prompt.tools.length > 0 && knobs.text === undefined
      ? toolCallsFor(prompt.lastUserText, prompt.tools)
      : [];
  let text = '';
  let pieces: string[] = [];
  let finish: Answer['finish'] = 'stop';
  let outputWords = 0;
  if (toolCalls.length > 0) {
    finish = 'tool_calls';
    for (const c of toolCalls) outputWords += 1 + countWords(c.arguments);
  } else {
    text = knobs.text ?? (prompt.lastUserText === '' ? 'echo:' : `echo: ${prompt.lastUserText}`);
    const words = text.split(' ');
    if (prompt.maxTokens !== undefined && prompt.maxTokens >= 0 && countWords(text) > prompt.maxTokens) {
      words.length = prompt.maxTokens;
      text = words.join(' ');
      finish = 'length';
    }
    pieces = words.map((w, i) => (i === 0 ? w : ` ${w}`));
    outputWords = countWords(text);
  }
  const u = knobs.usage ?? {};
  const answer: Answer = {
    model: knobs.model ?? prompt.model,
    text,
    pieces,
    toolCalls,
    finish,
    usage: {
      input: u.input_tokens ?? prompt.inputWords,
      output: u.output_tokens ?? outputWords,
      cacheRead: u.cached_read_tokens ?? 0,
      cacheWrite: u.cached_write_tokens ?? 0,
      reasoning: u.reasoning_tokens ?? 0,
      webSearch: u.web_search_requests ?? 0,
      citation: u.citation_tokens ?? 0,
      cost: u.cost,
    },
  };
  knobs.report?.(answer.usage);
  return answer;
}

/** A deterministic unit vector for a text (same text, same vector), `dims` long. */
export function embed(text: string, dims: number): number[] {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  const v = new Array<number>(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ i;
    const x = ((h >>> 0) / 4294967295) * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dims; i++) v[i] = Math.round((v[i]! / norm) * 1e6) / 1e6;
  return v;
}

/**
 * A bag-of-words embedding: the sum of each word's `embed` (lowercased, punctuation dropped), normalised. Texts that
 * share most words point the same way (a paraphrase is similar, another question is not), what semantic caches need.
 */
export function embedWords(text: string, dims: number): number[] {
  const sum = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    embed(word, dims).forEach((x, i) => (sum[i]! += x));
  }
  const norm = Math.sqrt(sum.reduce((acc, x) => acc + x * x, 0)) || 1;
  return sum.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

/** OpenAI's `encoding_format: base64`: the float32 little-endian bytes, base64. */
export function embeddingBase64(values: number[]): string {
  return Buffer.from(new Float32Array(values).buffer).toString('base64');
}
