import { ValidatesWith } from '../../../../core/validation/field.decorators.js';

/** Most entries of an alias or deployment map. */
export const MAX_MAP_ENTRIES = 1000;
/** Longest model name, deployment name or alias field. */
export const MAX_MODEL_NAME_LENGTH = 255;

const ALIAS_FIELDS = new Set(['model_id', 'model_name', 'model_family']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function entryNameProblem(name: string): string | undefined {
  if (name.trim() === '') return ' must not have an empty model name as a key';
  if (name.length > MAX_MODEL_NAME_LENGTH)
    return ` must not have a key longer than ${MAX_MODEL_NAME_LENGTH} characters`;
  return undefined;
}

function textProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return 'must be a nonempty string';
  if (value.length > MAX_MODEL_NAME_LENGTH) return `must be at most ${MAX_MODEL_NAME_LENGTH} characters`;
  return undefined;
}

/**
 * Why `value` is not a map of requested model → `{ model_id, model_name?, model_family? }`, naming the entry
 * (`.gpt-4o.model_id is required`), or undefined.
 */
export function aliasesProblem(value: unknown): string | undefined {
  if (!isPlainObject(value))
    return ' must be an object mapping model names to { model_id, model_name?, model_family? }';
  const entries = Object.entries(value);
  if (entries.length > MAX_MAP_ENTRIES) return ` must have at most ${MAX_MAP_ENTRIES} entries`;
  for (const [name, alias] of entries) {
    const nameProblem = entryNameProblem(name);
    if (nameProblem) return nameProblem;
    if (!isPlainObject(alias)) return `.${name} must be an object { model_id, model_name?, model_family? }`;
    const unknown = Object.keys(alias).find((k) => !ALIAS_FIELDS.has(k));
    if (unknown !== undefined) return `.${name}.${unknown} is not a known field`;
    if (alias.model_id === undefined) return `.${name}.model_id is required`;
    for (const field of ALIAS_FIELDS) {
      if (alias[field] === undefined) continue;
      const problem = textProblem(alias[field]);
      if (problem) return `.${name}.${field} ${problem}`;
    }
  }
  return undefined;
}

/** Why `value` is not a map of model → nonempty string (Azure deployments), naming the entry, or undefined. */
export function stringMapProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return ' must be an object mapping model names to names';
  const entries = Object.entries(value);
  if (entries.length > MAX_MAP_ENTRIES) return ` must have at most ${MAX_MAP_ENTRIES} entries`;
  for (const [name, target] of entries) {
    const nameProblem = entryNameProblem(name);
    if (nameProblem) return nameProblem;
    const problem = textProblem(target);
    if (problem) return `.${name} ${problem}`;
  }
  return undefined;
}

export const IsAliasMap = () => ValidatesWith('isAliasMap', aliasesProblem);
export const IsStringMap = () => ValidatesWith('isStringMap', stringMapProblem);
