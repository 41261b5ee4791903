import type { Invocation } from './spec.js';

export type OutputFormat = 'table' | 'json' | 'yaml';

export function outputFormat(invocation: Invocation): OutputFormat {
  return (invocation.options.output as OutputFormat | undefined) ?? 'table';
}

/** The value at a dotted path. */
export function pick(value: unknown, path: string): unknown {
  let at = value;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' ');
}

/** Rows as an aligned text table with an upper-case header. */
export function table(rows: readonly unknown[], columns: readonly string[]): string {
  const cells = rows.map((row) => columns.map((c) => cell(pick(row, c))));
  const header = columns.map((c) => c.replace(/\./g, '_').toUpperCase());
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...cells.map(line)].join('\n')}\n`;
}

/** An object as `field: value` lines (the table form of one object). */
function record(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `${cell(value)}\n`;
  const entries = Object.entries(value as Record<string, unknown>);
  const width = Math.max(...entries.map(([k]) => k.length));
  return `${entries.map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`).join('\n')}\n`;
}

/**
 * `{ message, <object> }` (what writes answer) as the object, the message on stderr: a table shows the object's
 * fields, not one cell of JSON.
 */
function unwrapMessage(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const message = (value as { message?: unknown }).message;
  const objects = entries.filter(([k, v]) => k !== 'message' && v && typeof v === 'object' && !Array.isArray(v));
  if (typeof message !== 'string' || entries.length !== 2 || objects.length !== 1) return value;
  process.stderr.write(`${message}\n`);
  return objects[0]![1];
}

/** Writes a list or an object to stdout in the invocation's format. */
export async function print(invocation: Invocation, value: unknown, columns?: readonly string[]): Promise<void> {
  const format = outputFormat(invocation);
  if (format === 'json') process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (format === 'yaml') {
    const { stringify } = await import('yaml');
    process.stdout.write(stringify(value));
  } else if (Array.isArray(value) && columns) process.stdout.write(table(value, columns));
  else process.stdout.write(record(unwrapMessage(value)));
}
