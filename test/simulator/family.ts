import type { IncomingHttpHeaders } from 'node:http';
import type { AnswerKnobs, FamilyName, Framing, RetryHintKind } from './types.js';

/** A request as a family sees it. Families fill `key`, `model` and `stream`. */
export interface SimRequest {
  family: FamilyName;
  method: string;
  /** Full path, family prefix included, no query. */
  path: string;
  /** The path after the family prefix (`/v1/chat/completions`). */
  sub: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The body as received (what a signature covers). */
  rawBody: string;
  /** A body was sent but it is not JSON. */
  badJson: boolean;
  key?: string;
  model?: string;
  stream: boolean;
}

/** A complete response. `headers` includes content-type and content-length. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A 200 streamed as frames (an SSE event or a JSON array element each, or a binary event-stream message), each
 * already framed.
 */
export interface StreamReply {
  headers: Record<string, string>;
  frames: Array<string | Uint8Array>;
  /** The family's in-stream error event (written instead of the rest when a scenario asks for `stream_error`). */
  errorFrame: string | Uint8Array;
}

/** What a family's error renderer is asked for (from a scenario step or from the family's own checks). */
export interface ErrorSpec {
  status: number;
  /** Anthropic answers 529 `overloaded_error`; other families a 503. */
  overloaded?: boolean;
  hint?: RetryHintKind;
  hintMs?: number;
  message?: string;
  /** Overrides the family's code for the status; null for none. */
  code?: string | null;
}

/** A resolved operation: renders the normal answer. */
export type Operation = (knobs: AnswerKnobs) => Reply | StreamReply;

export interface Family {
  readonly name: FamilyName;
  /** Sets `req.key` from the family's auth scheme; a native error when the request cannot be authenticated. */
  authenticate(req: SimRequest): Reply | undefined;
  /** Sets `req.model` and `req.stream`; the operation, or a native 400/404 for a bad path or body. */
  route(req: SimRequest): Operation | Reply;
  error(req: SimRequest, spec: ErrorSpec): Reply;
}

export function isReply(r: Operation | Reply): r is Reply {
  return typeof r !== 'function';
}

export function isStream(r: Reply | StreamReply): r is StreamReply {
  return (r as StreamReply).frames !== undefined;
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  const text = JSON.stringify(body);
  return {
    status,
    headers: {
      ...headers,
      'content-type': headers['content-type'] ?? 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    },
    body: text,
  };
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};

export function eolOf(framing: Framing | undefined, fallback: Framing): string {
  return (framing ?? fallback) === 'crlf' ? '\r\n' : '\n';
}

/** `data: <json>` then a blank line. `json` is already serialised. */
export function dataFrame(json: string, eol: string): string {
  return `data: ${json}${eol}${eol}`;
}

/** `event: <name>`, `data: <json>`, a blank line. */
export function eventFrame(event: string, json: string, eol: string): string {
  return `event: ${event}${eol}data: ${json}${eol}${eol}`;
}

/** Headers carrying a retry hint of `ms` (none for `gemini-retry-info`, which goes in the body, or `none`). */
export function hintHeaders(kind: RetryHintKind, ms: number): Record<string, string> {
  switch (kind) {
    case 'retry-after-seconds':
      return { 'retry-after': String(Math.ceil(ms / 1000)) };
    case 'retry-after-date':
      // HTTP dates have 1 s resolution: round up so the hint is never shorter than asked.
      return { 'retry-after': new Date(Math.ceil((Date.now() + ms) / 1000) * 1000).toUTCString() };
    case 'retry-after-ms':
      return { 'retry-after-ms': String(ms) };
    case 'gemini-retry-info':
    case 'none':
      return {};
  }
}

/**
 * The frame cut in the middle of its JSON (what a broken proxy or a truncated write delivers), framing kept; a binary
 * frame gets one payload byte flipped, so its length holds and its CRC fails.
 */
export function corruptFrame(frame: string): string;
export function corruptFrame(frame: string | Uint8Array): string | Uint8Array;
export function corruptFrame(frame: string | Uint8Array): string | Uint8Array {
  if (typeof frame !== 'string') {
    const bytes = Uint8Array.from(frame);
    bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 0xff;
    return bytes;
  }
  const open = frame.indexOf('{');
  const close = frame.lastIndexOf('}');
  if (open < 0 || close <= open) return `data: {"broken${frame.slice(frame.length - 2)}`;
  return frame.slice(0, open + Math.max(2, Math.floor((close - open) / 2))) + frame.slice(close + 1);
}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function bearer(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (auth === undefined || auth.length < 8 || auth.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return auth.slice(7).trim() || undefined;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Splits JSON argument text into a few stream fragments, as providers stream tool arguments. */
export function fragments(text: string, size = 12): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
