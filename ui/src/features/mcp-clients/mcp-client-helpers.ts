import type { Schema } from '../../api/schemas';

export type McpClientView = Schema<'McpClient'>;
export type McpToolView = Schema<'McpToolView'>;
export type McpClientCreate = Schema<'McpClientCreateRequest'>;

/** Whether callers may use `tool` of `client` (`tools_to_execute`: `["*"]` every tool, else the names listed). */
export function toolEnabled(client: Pick<McpClientView, 'tools_to_execute'>, tool: string): boolean {
  return client.tools_to_execute.includes('*') || client.tools_to_execute.includes(tool);
}

/**
 * The `tools_to_execute` and `tools_to_auto_execute` after switching `tool` on or off. `["*"]` becomes the explicit
 * list of the other tools when one is switched off, and `["*"]` again when every listed tool is on. A tool switched
 * off leaves the auto-execute list too (the API requires it to be a subset; `["*"]` there becomes the same list).
 */
export function toggledTools(
  client: Pick<McpClientView, 'tools_to_execute' | 'tools_to_auto_execute' | 'tools'>,
  tool: string,
  enabled: boolean,
): Pick<McpClientCreate, 'tools_to_execute' | 'tools_to_auto_execute'> {
  const listed = client.tools.map((t) => t.name);
  const current = new Set(client.tools_to_execute.includes('*') ? listed : client.tools_to_execute);
  if (enabled) current.add(tool);
  else current.delete(tool);
  const all = listed.length > 0 && listed.every((name) => current.has(name));
  const execute = all ? ['*'] : [...current].sort();
  const autoNow = client.tools_to_auto_execute;
  let auto = autoNow;
  if (!enabled)
    auto = autoNow.includes('*') ? execute.filter((name) => name !== '*') : autoNow.filter((n) => n !== tool);
  return { tools_to_execute: execute, tools_to_auto_execute: auto };
}

/** The header rows of the add form, as the API takes them: blank names dropped. */
export function headersOf(rows: Array<{ name: string; value: string }>): Record<string, string> | undefined {
  const entries = rows.filter((row) => row.name.trim()).map((row) => [row.name.trim(), row.value] as const);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** How a stored header reads on screen: never its value. */
export function headerSource(value: Schema<'SecretValue'>): string {
  if (value.type === 'env' || value.type === 'vault') return `Redacted (${value.ref})`;
  return 'Redacted';
}

/** A JSON Schema, as a tool's `input_schema` carries it (the subset the argument check reads). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  return typeOf(value) === type;
}

/**
 * What is wrong with `value` against `schema`, one line a problem naming its path (`a.b[0]`): type, required,
 * unknown properties when `additionalProperties` is false, enum, const, ranges, lengths, pattern, items, and
 * `anyOf`/`oneOf` (some branch must fit). Keywords outside this subset are left to the MCP server, which stays the
 * authority. Written here rather than with a schema compiler because the page's policy forbids `eval`.
 */
export function argumentProblems(schema: JsonSchema | undefined, value: unknown, path = 'arguments'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const problems: string[] = [];
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((type) => matchesType(value, type))) {
    return [`${path} must be ${types.join(' or ')}, not ${typeOf(value)}`];
  }
  if (schema.enum && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    problems.push(`${path} must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    problems.push(`${path} must be ${JSON.stringify(schema.const)}`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path} must be ≥ ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path} must be ≤ ${schema.maximum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
      problems.push(`${path} must be > ${schema.exclusiveMinimum}`);
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
      problems.push(`${path} must be < ${schema.exclusiveMaximum}`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength)
      problems.push(`${path} must have at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && length > schema.maxLength)
      problems.push(`${path} must have at most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined) {
      let pattern: RegExp | undefined;
      try {
        pattern = new RegExp(schema.pattern, 'u');
      } catch {
        pattern = undefined; // A pattern this browser cannot read: the server judges it.
      }
      if (pattern && !pattern.test(value)) problems.push(`${path} must match ${schema.pattern}`);
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      problems.push(`${path} must have at least ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      problems.push(`${path} must have at most ${schema.maxItems} items`);
    if (schema.items)
      value.forEach((item, i) => problems.push(...argumentProblems(schema.items, item, `${path}[${i}]`)));
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!(name in object)) problems.push(`${path}.${name} is required`);
    }
    for (const [name, item] of Object.entries(object)) {
      const property = schema.properties?.[name];
      if (property) problems.push(...argumentProblems(property, item, `${path}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${name} is not a known argument`);
      else if (typeof schema.additionalProperties === 'object')
        problems.push(...argumentProblems(schema.additionalProperties, item, `${path}.${name}`));
    }
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches && !branches.some((branch) => argumentProblems(branch, value, path).length === 0)) {
    problems.push(`${path} fits none of the allowed shapes`);
  }
  return problems;
}

/** The arguments typed in the call panel: the parsed object, or why it cannot be sent. */
export function parseArguments(
  text: string,
  schema: JsonSchema | undefined,
): { ok: true; value: Record<string, unknown> } | { ok: false; problems: string[] } {
  let value: unknown;
  try {
    value = text.trim() ? JSON.parse(text) : {};
  } catch (error) {
    return { ok: false, problems: [`Not JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (typeOf(value) !== 'object') return { ok: false, problems: ['The arguments must be a JSON object'] };
  const problems = argumentProblems(schema, value);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: value as Record<string, unknown> };
}

/** A starting text for the arguments: each property with an empty value of its type. */
export function argumentsTemplate(schema: JsonSchema | undefined): string {
  const blank = (property: JsonSchema): unknown => {
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (property.enum?.length) return property.enum[0];
    switch (type) {
      case 'number':
      case 'integer':
        return 0;
      case 'boolean':
        return false;
      case 'array':
        return [];
      case 'object':
        return {};
      case undefined:
      default:
        return '';
    }
  };
  const entries = Object.entries(schema?.properties ?? {}).map(([name, property]) => [name, blank(property)]);
  return JSON.stringify(Object.fromEntries(entries), null, 2);
}
