import type { FieldConstraints, ObjectConstraints } from '../../api/constraints.gen';

/** An empty form value: absent for the API (optional fields are left out of the request). */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * What is wrong with one value under the constraints the API declares for it (type, enum, lengths, range, pattern,
 * items), or undefined. A blank value is never wrong here: `required` is the object's concern.
 */
export function fieldProblem(value: unknown, c: FieldConstraints): string | undefined {
  if (isBlank(value)) return undefined;
  if (c.oneOf?.length) {
    // One alternative of the value's own kind must hold (a SecretValue typed as a string is checked as one).
    const kind = Array.isArray(value) ? 'array' : typeof value;
    const fitting = c.oneOf.filter(
      (a) => a.type === undefined || a.type === kind || (a.type === 'integer' && kind === 'number'),
    );
    if (fitting.length === 0) return 'Has the wrong type';
    const problems = fitting.map(
      (a) =>
        fieldProblem(value, a) ??
        // An object alternative's own fields (nested objects elsewhere are `nestedProblems`' concern).
        (a.object && Object.values(objectProblems(value as Record<string, unknown>, a.object()))[0]) ??
        undefined,
    );
    return problems.includes(undefined) ? undefined : problems[0];
  }
  switch (c.type) {
    case 'integer':
    case 'number': {
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isFinite(n)) return 'Must be a number';
      if (c.type === 'integer' && !Number.isInteger(n)) return 'Must be a whole number';
      if (c.minimum !== undefined && n < c.minimum) return `Must be at least ${c.minimum}`;
      if (c.maximum !== undefined && n > c.maximum) return `Must be at most ${c.maximum}`;
      if (typeof c.exclusiveMinimum === 'number' && n <= c.exclusiveMinimum)
        return `Must be more than ${c.exclusiveMinimum}`;
      if (typeof c.exclusiveMaximum === 'number' && n >= c.exclusiveMaximum)
        return `Must be less than ${c.exclusiveMaximum}`;
      break;
    }
    case 'boolean':
      if (typeof value !== 'boolean' && value !== 'true' && value !== 'false') return 'Must be true or false';
      break;
    case 'array': {
      if (!Array.isArray(value)) return 'Must be a list';
      if (c.minItems !== undefined && value.length < c.minItems) return `Needs at least ${c.minItems} items`;
      if (c.maxItems !== undefined && value.length > c.maxItems) return `At most ${c.maxItems} items`;
      if (c.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
        return 'Items must not repeat';
      const item = c.items && value.map((v) => fieldProblem(v, c.items!)).find(Boolean);
      if (item) return item;
      break;
    }
    case 'string':
    case undefined: {
      if (typeof value !== 'string') break;
      if (c.minLength !== undefined && value.length < c.minLength)
        return `At least ${c.minLength} character${c.minLength === 1 ? '' : 's'}`;
      if (c.maxLength !== undefined && value.length > c.maxLength) return `At most ${c.maxLength} characters`;
      if (c.format === 'date-time' && !RFC3339.test(value)) return 'Must be a date and time';
      if (c.pattern !== undefined && !new RegExp(c.pattern, 'u').test(value)) return 'Has the wrong format';
      break;
    }
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return 'Must be an object';
      const entries = Object.values(value as Record<string, unknown>);
      if (c.maxProperties !== undefined && entries.length > c.maxProperties)
        return `At most ${c.maxProperties} entries`;
      const entry = c.values && entries.map((v) => fieldProblem(v, c.values!)).find(Boolean);
      if (entry) return entry;
      break;
    }
  }
  if (c.enum && !c.enum.includes(value)) return `Must be one of: ${c.enum.join(', ')}`;
  return undefined;
}

/**
 * The problems of a form's values against an object's constraints, by field name: required fields, then each
 * field's own. `fields` limits the check to the fields the form shows.
 */
export function objectProblems(
  values: Record<string, unknown>,
  c: ObjectConstraints,
  fields: readonly string[] = Object.keys(c.properties),
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const name of fields) {
    const value = values[name];
    const rule = c.properties[name];
    if (c.required.includes(name) && isBlank(value)) problems[name] = 'Required';
    else if (rule) {
      const problem = fieldProblem(value, rule);
      if (problem) problems[name] = problem;
    }
  }
  return problems;
}

/**
 * The problems of nested objects (`network_config`, each of `budgets`), which `objectProblems` leaves to their own
 * constraints: by form path (`budgets.0.max_limit`), as Mantine's form names a nested field.
 */
export function nestedProblems(values: Record<string, unknown>, c: ObjectConstraints): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [name, rule] of Object.entries(c.properties)) {
    const value = values[name];
    const inner = rule.type === 'array' ? rule.items?.object : rule.object;
    if (!inner || value === null || typeof value !== 'object') continue;
    const items: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((item, i) => [`${name}.${i}`, item])
      : [[name, value]];
    for (const [path, item] of items) {
      if (item === null || typeof item !== 'object') continue;
      const record = item as Record<string, unknown>;
      for (const [field, problem] of Object.entries(objectProblems(record, inner())))
        problems[`${path}.${field}`] = problem;
      for (const [field, problem] of Object.entries(nestedProblems(record, inner())))
        problems[`${path}.${field}`] = problem;
    }
  }
  return problems;
}

/** An API `error.param` as a form path: `budgets[1].reset_duration` is `budgets.1.reset_duration`. */
export function formPath(param: string): string {
  return param.replace(/\[(\d+)\]/g, '.$1');
}
