import { readFile } from 'node:fs/promises';
import { UsageError, type Invocation } from './spec.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Sets `value` at a dotted path, creating objects on the way. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    if (!at[part] || typeof at[part] !== 'object') at[part] = {};
    at = at[part] as Record<string, unknown>;
  }
  at[parts.at(-1)!] = value;
}

/**
 * The request body of a create or update: `--file` (JSON or YAML, `-` for stdin), else `--data` (JSON), then each
 * `--set path=value` over it (the value read as JSON when it parses: `--set weight=2`, `--set name=ml`).
 */
export async function requestBody(invocation: Invocation): Promise<Record<string, unknown>> {
  const { file, data, set } = invocation.options as { file?: string; data?: string; set?: string[] };
  let body: unknown = {};
  if (file !== undefined) {
    const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
    const { parse } = await import('yaml');
    try {
      body = parse(text);
    } catch (e) {
      throw new UsageError(`${file}: ${(e as Error).message}`, invocation.path);
    }
  } else if (data !== undefined) {
    try {
      body = JSON.parse(data);
    } catch (e) {
      throw new UsageError(`--data is not JSON: ${(e as Error).message}`, invocation.path);
    }
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new UsageError('the body must be an object', invocation.path);
  }
  for (const assignment of set ?? []) {
    const at = assignment.indexOf('=');
    if (at <= 0) throw new UsageError(`--set ${assignment}: expected path=value`, invocation.path);
    const raw = assignment.slice(at + 1);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    setPath(body as Record<string, unknown>, assignment.slice(0, at), value);
  }
  return body as Record<string, unknown>;
}
