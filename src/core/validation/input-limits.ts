import { MAX_JSON_DEPTH } from '../http/limits.js';

/**
 * Ceilings every validated request value obeys, whatever its DTO declares: a DTO field may bound tighter (names at
 * 255, secrets at 8 KiB), never looser. They keep a new DTO without explicit bounds from accepting a 1 MB string or
 * 100,000 items, and they are checked on the raw input, before class-transformer walks it.
 */
export const INPUT_LIMITS = {
  /** Longest string anywhere in a body or query (a PEM CA bundle is the largest legitimate value). */
  maxStringLength: 65_536,
  /** Most items of any array. */
  maxArrayItems: 1_000,
  /** Most keys of any object (maps such as upstream headers included). */
  maxObjectKeys: 1_000,
  /** Deepest nesting of objects and arrays: the body parser's limit, so one limit holds for every route. */
  maxDepth: MAX_JSON_DEPTH,
} as const;

/** Default bounds of the shared decorators (string lists, SecretValues). */
export const DEFAULT_MAX_LIST_ITEMS = 100;
export const DEFAULT_MAX_ITEM_LENGTH = 1_024;
export const DEFAULT_MAX_SECRET_LENGTH = 8_192;

export interface InputProblem {
  /** Dotted path of the offending field (`runtime_auth.oauth.scopes[0]`), or `body` for the whole body. */
  param: string;
  message: string;
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

/**
 * The first value that no field may hold: a string with a NUL character (Postgres and PGlite refuse it in text and
 * jsonb), or a string, array, object or nesting beyond INPUT_LIMITS. `root` names the value when the problem is the
 * value itself (`body`, or a query parameter's name).
 */
export function inputProblem(value: unknown, prefix = '', root = 'body'): InputProblem | undefined {
  const at = (path: string) => path || root;
  const walk = (v: unknown, path: string, depth: number): InputProblem | undefined => {
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return { param: at(path), message: `${at(path)} must not contain a NUL character` };
      if (v.length > INPUT_LIMITS.maxStringLength) {
        return { param: at(path), message: `${at(path)} must be at most ${INPUT_LIMITS.maxStringLength} characters` };
      }
      return undefined;
    }
    if (!v || typeof v !== 'object') return undefined;
    if (depth >= INPUT_LIMITS.maxDepth) {
      // The path down there names no declared field: blame the whole value.
      return { param: root, message: `${root} is nested deeper than ${INPUT_LIMITS.maxDepth} levels` };
    }
    if (Array.isArray(v)) {
      if (v.length > INPUT_LIMITS.maxArrayItems) {
        return { param: at(path), message: `${at(path)} must have at most ${INPUT_LIMITS.maxArrayItems} items` };
      }
      for (let i = 0; i < v.length; i++) {
        const problem = walk(v[i], `${path}[${i}]`, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    }
    const keys = Object.keys(v);
    if (keys.length > INPUT_LIMITS.maxObjectKeys) {
      return { param: at(path), message: `${at(path)} must have at most ${INPUT_LIMITS.maxObjectKeys} fields` };
    }
    for (const key of keys) {
      // A field name cannot be the param (it names no field): blame the object holding it.
      if (key.includes('\u0000'))
        return { param: at(path), message: `${at(path)} has a field name with a NUL character` };
      if (key.length > INPUT_LIMITS.maxStringLength)
        return { param: at(path), message: `${at(path)} has an over-long field name` };
      const problem = walk((v as Record<string, unknown>)[key], join(path, key), depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  return walk(value, prefix, 0);
}

/** The value at a dotted path (`a.b[2].c`) of a plain value, or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  let node = value;
  for (const part of path.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
