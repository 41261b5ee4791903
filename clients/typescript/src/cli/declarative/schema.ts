/**
 * The declarative config file's schema, written once: `validate` checks a parsed file against it (every problem, with
 * its path) and `jsonSchema` emits the JSON Schema editors read (schema/gateway-config.v1.schema.json, kept equal by a
 * test). A small vocabulary rather than a general validator: what the file needs, nothing more.
 */
export type Shape =
  | { kind: 'string'; description?: string; pattern?: string; enum?: readonly string[] }
  | { kind: 'integer'; description?: string; minimum?: number }
  | { kind: 'number'; description?: string; minimum?: number }
  | { kind: 'boolean'; description?: string }
  | { kind: 'array'; items: Shape; description?: string }
  | { kind: 'object'; fields: Record<string, Shape>; required?: readonly string[]; description?: string }
  | { kind: 'map'; values: Shape; description?: string }
  | { kind: 'secret'; description?: string }
  | { kind: 'any'; description?: string }
  | { kind: 'nullable'; shape: Shape };

export const str = (description?: string, extra: { pattern?: string; enum?: readonly string[] } = {}): Shape => ({
  kind: 'string',
  description,
  ...extra,
});
export const oneOf = (values: readonly string[], description?: string): Shape => ({
  kind: 'string',
  enum: values,
  description,
});
export const int = (description?: string, minimum?: number): Shape => ({ kind: 'integer', description, minimum });
export const num = (description?: string, minimum?: number): Shape => ({ kind: 'number', description, minimum });
export const bool = (description?: string): Shape => ({ kind: 'boolean', description });
export const arr = (items: Shape, description?: string): Shape => ({ kind: 'array', items, description });
export const obj = (fields: Record<string, Shape>, required: readonly string[] = [], description?: string): Shape => ({
  kind: 'object',
  fields,
  required,
  description,
});
export const map = (values: Shape, description?: string): Shape => ({ kind: 'map', values, description });
export const secret = (description?: string): Shape => ({ kind: 'secret', description });
export const any = (description?: string): Shape => ({ kind: 'any', description });
export const nullable = (shape: Shape): Shape => ({ kind: 'nullable', shape });

export interface SchemaProblem {
  path: (string | number)[];
  message: string;
}

const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** A secret in the file: `env.NAME` / `vault.path` (the gateway resolves it) or `{ fromEnv }` / `{ fromFile }`. */
export function isSecretReference(value: unknown): boolean {
  if (typeof value === 'string') return /^(env\.[A-Za-z_][A-Za-z0-9_]*|vault\.\S+)$/.test(value);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const v = value as Record<string, unknown>;
  return keys.length === 1 && (typeof v.fromEnv === 'string' || typeof v.fromFile === 'string');
}

/** Every problem of `value` against `shape`, with its path. */
export function validate(shape: Shape, value: unknown, path: (string | number)[] = []): SchemaProblem[] {
  const problem = (message: string): SchemaProblem[] => [{ path, message }];
  switch (shape.kind) {
    case 'nullable':
      return value === null ? [] : validate(shape.shape, value, path);
    case 'any':
      return [];
    case 'string':
      if (typeof value !== 'string') return problem(`expected a string, got ${typeName(value)}`);
      if (shape.enum && !shape.enum.includes(value))
        return problem(`expected one of ${shape.enum.join(', ')}, got '${value}'`);
      if (shape.pattern && !new RegExp(shape.pattern).test(value))
        return problem(`'${value}' does not match ${shape.pattern}`);
      return [];
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        return problem(`expected an integer, got ${typeName(value)}`);
      if (shape.minimum !== undefined && value < shape.minimum) return problem(`must be at least ${shape.minimum}`);
      return [];
    case 'number':
      if (typeof value !== 'number') return problem(`expected a number, got ${typeName(value)}`);
      if (shape.minimum !== undefined && value < shape.minimum) return problem(`must be at least ${shape.minimum}`);
      return [];
    case 'boolean':
      return typeof value === 'boolean' ? [] : problem(`expected true or false, got ${typeName(value)}`);
    case 'secret':
      return isSecretReference(value)
        ? []
        : problem(
            'a secret must be a reference: env.NAME, vault.path, { fromEnv: NAME } or { fromFile: path }, never a value',
          );
    case 'array':
      if (!Array.isArray(value)) return problem(`expected a list, got ${typeName(value)}`);
      return value.flatMap((item, i) => validate(shape.items, item, [...path, i]));
    case 'map':
      if (!value || typeof value !== 'object' || Array.isArray(value))
        return problem(`expected a map, got ${typeName(value)}`);
      return Object.entries(value).flatMap(([k, v]) => validate(shape.values, v, [...path, k]));
    case 'object': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        return problem(`expected an object, got ${typeName(value)}`);
      }
      const problems: SchemaProblem[] = [];
      for (const key of shape.required ?? []) {
        if (!(key in value)) problems.push({ path, message: `missing required field '${key}'` });
      }
      for (const [key, v] of Object.entries(value)) {
        const field = shape.fields[key];
        if (!field) problems.push({ path: [...path, key], message: `unknown field '${key}'` });
        else problems.push(...validate(field, v, [...path, key]));
      }
      return problems;
    }
  }
}

/** The JSON Schema (draft 2020-12) of `shape`. */
export function jsonSchema(shape: Shape): Record<string, unknown> {
  const described = (s: { description?: string }, out: Record<string, unknown>) =>
    s.description ? { description: s.description, ...out } : out;
  switch (shape.kind) {
    case 'nullable':
      return { anyOf: [jsonSchema(shape.shape), { type: 'null' }] };
    case 'any':
      return described(shape, {});
    case 'string':
      return described(shape, {
        type: 'string',
        ...(shape.enum ? { enum: shape.enum } : {}),
        ...(shape.pattern ? { pattern: shape.pattern } : {}),
      });
    case 'integer':
    case 'number':
      return described(shape, { type: shape.kind, ...(shape.minimum !== undefined ? { minimum: shape.minimum } : {}) });
    case 'boolean':
      return described(shape, { type: 'boolean' });
    case 'secret':
      return described(shape, { $ref: '#/$defs/secret' });
    case 'array':
      return described(shape, { type: 'array', items: jsonSchema(shape.items) });
    case 'map':
      return described(shape, { type: 'object', additionalProperties: jsonSchema(shape.values) });
    case 'object':
      return described(shape, {
        type: 'object',
        properties: Object.fromEntries(Object.entries(shape.fields).map(([k, v]) => [k, jsonSchema(v)])),
        ...(shape.required?.length ? { required: shape.required } : {}),
        additionalProperties: false,
      });
  }
}
