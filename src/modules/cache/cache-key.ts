import { createHash } from 'node:crypto';
import type { PluginJson } from '../plugins/index.js';
import type { CacheScope } from './cache-config.js';

/** The inference kinds whose answers are JSON (or a JSON stream) and can be replayed; media answers are not cached. */
export const CACHEABLE_KINDS: ReadonlySet<string> = new Set([
  'chat',
  'completions',
  'responses',
  'embeddings',
  'rerank',
]);

/**
 * Body fields that never change the answer, left out of the key: who the caller says they are (`user`), the
 * caller's own tags (`metadata`) and OpenAI's `store` flag. `stream` is not hashed from the body but as the request's
 * stream flag: a stream is replayed as a stream, a unary answer as JSON, so neither serves the other.
 */
const IGNORED_FIELDS: ReadonlySet<string> = new Set(['stream', 'user', 'metadata', 'store']);

/** Bumped when the key material changes, so old entries stop matching instead of being misread. */
const KEY_VERSION = 1;

/** The scope part of a key: the virtual key's id, or `shared` (a caller without a key is `anonymous`). */
export function scopeOf(scope: CacheScope, virtualKeyId: string | undefined): string {
  return scope === 'shared' ? 'shared' : `vk:${virtualKeyId ?? 'anonymous'}`;
}

/** JSON with object keys in sorted order at every depth, so `{a,b}` and `{b,a}` hash alike. */
export function canonicalJson(value: unknown): string {
  // One string built in place (no per-level arrays or joins): this runs on every cacheable request.
  let out = '';
  const write = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      out += JSON.stringify(v) ?? 'null';
      return;
    }
    if (Array.isArray(v)) {
      out += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) out += ',';
        write(v[i] === undefined ? null : v[i]);
      }
      out += ']';
      return;
    }
    const object = v as PluginJson;
    const keys = Object.keys(object).sort();
    out += '{';
    let first = true;
    for (const key of keys) {
      const member = object[key];
      if (member === undefined) continue;
      if (!first) out += ',';
      first = false;
      out += JSON.stringify(key) + ':';
      write(member);
    }
    out += '}';
  };
  write(value);
  return out;
}

/**
 * The exact-match key: sha256 (hex) of the request's kind, stream flag, scope and canonical body without the fields
 * that do not change the answer. Model, messages or input, and every parameter that reaches the provider are in it.
 */
export function cacheKeyOf(kind: string, stream: boolean, scope: string, body: PluginJson): string {
  const material: PluginJson = {};
  for (const [field, value] of Object.entries(body)) if (!IGNORED_FIELDS.has(field)) material[field] = value;
  const text = canonicalJson({ v: KEY_VERSION, kind, stream, scope, body: material });
  return createHash('sha256').update(text).digest('hex');
}

/** A cache key as the routes take it: 64 lowercase hex digits. */
export const CACHE_KEY_PATTERN = /^[0-9a-f]{64}$/;
