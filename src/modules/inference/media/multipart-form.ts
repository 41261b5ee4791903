import { randomBytes } from 'node:crypto';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { Json } from '../providers/shared/provider-adapter.js';
import { UploadedFile } from './uploaded-file.js';

/** Fields that are lists in the canonical body even when sent once (`image[]` is gpt-image-1's several images). */
const LIST_FIELDS: ReadonlySet<string> = new Set(['fallbacks', 'timestamp_granularities', 'include']);

/**
 * A multipart/form-data body as the canonical body: text fields as strings (`stream` as a boolean), files as
 * `UploadedFile`s, a field sent several times (or named `name[]`) as an array. Parsed by undici's form-data reader
 * (Node's built-in `Response`); the size was already capped by the server's body limit.
 */
export async function parseMultipartForm(bytes: Buffer, contentType: string): Promise<Json> {
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch (err) {
    throw GatewayException.validation('body', `The multipart body cannot be read: ${(err as Error).message}`);
  }
  const body: Json = {};
  for (const [rawName, value] of form.entries()) {
    const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName;
    const item =
      typeof value === 'string'
        ? value
        : new UploadedFile(
            value.name || 'file',
            value.type || 'application/octet-stream',
            Buffer.from(await value.arrayBuffer()),
          );
    const listed = rawName.endsWith('[]') || LIST_FIELDS.has(name);
    const existing = body[name];
    if (existing === undefined) body[name] = listed ? [item] : item;
    else body[name] = Array.isArray(existing) ? [...(existing as unknown[]), item] : [existing, item];
  }
  if (body.stream === 'true' || body.stream === 'false') body.stream = body.stream === 'true';
  return body;
}

/** One part of an upstream form: a text field or a file. */
export type FormValue = string | number | boolean | UploadedFile;

/**
 * Encodes a form for an upstream call: the bytes and the content-type with its boundary. Written here (a few lines)
 * rather than through `Request`, whose body is only readable asynchronously, so adapters stay synchronous and pure.
 */
export function encodeMultipartForm(fields: ReadonlyArray<readonly [string, FormValue]>): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----gateway${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"`;
    if (value instanceof UploadedFile) {
      head += `; filename="${quoted(value.filename)}"\r\nContent-Type: ${value.contentType}\r\n\r\n`;
      parts.push(Buffer.from(head), value.bytes, Buffer.from('\r\n'));
    } else {
      parts.push(Buffer.from(`${head}\r\n\r\n${String(value)}\r\n`));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A header parameter value: quotes and line breaks escaped as browsers do (WHATWG form encoding). */
function quoted(text: string): string {
  return text.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

/**
 * The canonical body's members as form fields, in order: arrays become repeated fields (`name[]` when
 * `arrayBrackets`), objects JSON text, undefined and null are left out.
 */
export function formFieldsOf(body: Json, arrayBrackets: ReadonlySet<string> = new Set()): Array<[string, FormValue]> {
  const fields: Array<[string, FormValue]> = [];
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const field = arrayBrackets.has(name) ? `${name}[]` : name;
      for (const item of value as unknown[]) fields.push([field, asFormValue(item)]);
    } else fields.push([name, asFormValue(value)]);
  }
  return fields;
}

function asFormValue(value: unknown): FormValue {
  if (value instanceof UploadedFile) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}
