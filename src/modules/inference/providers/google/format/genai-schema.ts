import type { Json } from '../../shared/provider-adapter.js';
import { isJsonObject } from '../../shared/wire-json.js';

/** Gemini's OpenAPI-subset Schema (`type: "OBJECT"`, `nullable`) as the JSON Schema other providers read. */
export function jsonSchema(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && isJsonObject(value))
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, s]) => [name, isJsonObject(s) ? jsonSchema(s) : s]),
      );
    else if ((key === 'items' || key === 'additionalProperties') && isJsonObject(value)) out[key] = jsonSchema(value);
    else if (key === 'anyOf' && Array.isArray(value))
      out.anyOf = (value as unknown[]).map((s) => (isJsonObject(s) ? jsonSchema(s) : s));
    else if (key !== 'nullable' && key !== 'propertyOrdering') out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}
