import { RuntimeSettingsUpdate, type FieldConstraints, type ObjectConstraints } from '../../api/constraints.gen';
import type { Schema } from '../../api/schemas';
import { isBlank } from '../../shared/forms/constraints';

export type RuntimeConfig = Schema<'RuntimeConfig'>;
export type RuntimeSettings = Schema<'RuntimeSettings'>;
export type SettingsPatch = Schema<'RuntimeSettingsUpdate'>;
export type SettingSource = RuntimeConfig['sources'][string];
export type PluginView = Schema<'Plugin'>;
export type CacheStats = Schema<'CacheStats'>;

/** How a setting is edited: a switch, a choice, a number, lines of text, or a line of text. */
export type SettingKind = 'boolean' | 'enum' | 'integer' | 'list' | 'string';

/** One runtime setting as a row of the screen. */
export interface SettingRow {
  /** The dotted config key, as the API names it in `sources` and in `error.param`. */
  key: string;
  /** The first part of the key: `inference`, `logs`, … */
  section: string;
  value: unknown;
  source: SettingSource;
  kind: SettingKind;
  field: FieldConstraints;
}

function kindOf(field: FieldConstraints): SettingKind {
  if (field.type === 'boolean') return 'boolean';
  if (field.enum) return 'enum';
  if (field.type === 'integer' || field.type === 'number') return 'integer';
  if (field.type === 'array') return 'list';
  return 'string';
}

type Plain = Record<string, unknown>;
const isObject = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at a dotted key of a nested object. */
export function valueAt(target: unknown, key: string): unknown {
  let node = target;
  for (const part of key.split('.')) node = isObject(node) && Object.hasOwn(node, part) ? node[part] : undefined;
  return node;
}

/** A copy of `target` with `value` at the dotted key (the objects on the way created). */
export function withValueAt<T extends Plain>(target: T, key: string, value: unknown): T {
  const [head, ...rest] = key.split('.');
  const copy: Plain = { ...target };
  copy[head!] =
    rest.length === 0 ? value : withValueAt(isObject(copy[head!]) ? (copy[head!] as Plain) : {}, rest.join('.'), value);
  return copy as T;
}

/**
 * Every runtime setting the API lets a PUT change (the `RuntimeSettingsUpdate` constraints, nested objects walked),
 * with its current value and where it comes from, in the API's order of sections.
 */
export function settingRows(
  config: RuntimeConfig,
  c: ObjectConstraints = RuntimeSettingsUpdate,
  prefix = '',
): SettingRow[] {
  const rows: SettingRow[] = [];
  for (const [name, field] of Object.entries(c.properties)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (field.type === 'object' && field.object) {
      rows.push(...settingRows(config, field.object(), key));
      continue;
    }
    rows.push({
      key,
      section: key.split('.')[0]!,
      value: valueAt(config.config, key),
      source: config.sources[key] ?? 'default',
      kind: kindOf(field),
      field,
    });
  }
  return rows;
}

/** The rows by section, sections in the order they come. */
export function sectionsOf(rows: readonly SettingRow[]): Array<{ section: string; rows: SettingRow[] }> {
  const sections = new Map<string, SettingRow[]>();
  for (const row of rows) sections.set(row.section, [...(sections.get(row.section) ?? []), row]);
  return [...sections].map(([section, list]) => ({ section, rows: list }));
}

/** A scalar as text; anything else as JSON. */
function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/** A setting's value as its input holds it: lists one item a line, numbers and text as text. */
export function toFormValue(row: Pick<SettingRow, 'kind'>, value: unknown): string | boolean {
  if (row.kind === 'boolean') return value === true;
  if (row.kind === 'list') return Array.isArray(value) ? value.map(scalarText).join('\n') : '';
  return value === undefined || value === null ? '' : scalarText(value);
}

/** An input's value as the API takes it: lines as a list (blank lines dropped), a whole number as a number. */
export function fromFormValue(row: Pick<SettingRow, 'kind'>, input: unknown): unknown {
  if (row.kind === 'boolean') return input === true;
  const text = input === undefined || input === null ? '' : scalarText(input);
  if (row.kind === 'list')
    return text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  if (row.kind === 'integer') {
    const n = Number(text.trim());
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  return text;
}

/** The form's values: the settings nested as in the config file, each as its input holds it. */
export function formValues(rows: readonly SettingRow[]): Plain {
  return rows.reduce<Plain>((values, row) => withValueAt(values, row.key, toFormValue(row, row.value)), {});
}

/** The form's values as a request body (every setting, converted): what the constraints check. */
export function requestValues(rows: readonly SettingRow[], values: Plain): Plain {
  return rows.reduce<Plain>(
    (request, row) => withValueAt(request, row.key, fromFormValue(row, valueAt(values, row.key))),
    {},
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The edit as a PUT /api/config body: only the settings whose value differs from the stored one, nested as the API
 * takes them, and their keys. Nothing changed: an empty patch.
 */
export function settingsPatch(rows: readonly SettingRow[], values: Plain): { patch: SettingsPatch; changed: string[] } {
  let patch: Plain = {};
  const changed: string[] = [];
  for (const row of rows) {
    const next = fromFormValue(row, valueAt(values, row.key));
    if (same(next, row.value)) continue;
    patch = withValueAt(patch, row.key, next);
    changed.push(row.key);
  }
  return { patch, changed };
}

/** The body that gives a setting back to the config file or the default: `null` at its key. */
export function resetPatch(key: string): SettingsPatch {
  return withValueAt({}, key, null);
}

/** Problems the constraints cannot state: a text or number setting left empty (a reset, not a blank, clears one). */
export function blankProblems(rows: readonly SettingRow[], values: Plain): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const row of rows)
    if ((row.kind === 'integer' || row.kind === 'string') && isBlank(valueAt(values, row.key)))
      problems[row.key] = 'Required (Reset gives it back to the file or default value)';
  return problems;
}

/** How a source reads: its badge and what it means. */
export function sourceBadge(source: SettingSource): {
  label: string;
  color: string;
  variant: 'filled' | 'light' | 'outline';
  meaning: string;
} {
  switch (source) {
    case 'api':
      return { label: 'api', color: 'blue.8', variant: 'filled', meaning: 'Set here (PUT /api/config), over the file' };
    case 'file':
      return {
        label: 'file',
        color: 'gray',
        variant: 'light',
        meaning: 'From the config file, the environment or a flag',
      };
    case 'default':
      return { label: 'default', color: 'gray', variant: 'outline', meaning: "The gateway's default" };
  }
}

/** A setting's value in one line: lists joined, an empty list as "none". */
export function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(scalarText).join(', ');
  if (value === undefined || value === null) return '—';
  return scalarText(value);
}

// Plugins

/**
 * The PUTs that move `plugins[index]` (chain order) one place up (-1) or down (+1): two distinct orders are swapped;
 * equal ones are renumbered 0, 10, 20… in the new order (only the plugins whose order changes).
 */
export function pluginMoves(
  plugins: readonly PluginView[],
  index: number,
  direction: -1 | 1,
): Array<{ name: string; order: number }> {
  const other = index + direction;
  const a = plugins[index];
  const b = plugins[other];
  if (!a || !b) return [];
  if (a.order !== b.order)
    return [
      { name: a.name, order: b.order },
      { name: b.name, order: a.order },
    ];
  const moved = [...plugins];
  moved[index] = b;
  moved[other] = a;
  return moved.flatMap((plugin, i) => (plugin.order === i * 10 ? [] : [{ name: plugin.name, order: i * 10 }]));
}

/** A plugin's config typed as JSON: the object, or what is wrong with the text. */
export function parseJsonObject(text: string): { value: Record<string, unknown> } | { error: string } {
  if (text.trim() === '') return { value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `Not JSON: ${(error as Error).message}` };
  }
  return isObject(value) ? { value } : { error: 'Must be a JSON object ({ … })' };
}

/** A plugin's config in one line for the list: `{}` as "none". */
export function configSummary(config: Record<string, unknown>): string {
  const keys = Object.keys(config);
  return keys.length === 0 ? 'none' : JSON.stringify(config);
}

// Response cache

const CACHE_KEY = /^[0-9a-f]{64}$/;

/**
 * What a purge input names: a cache key (64 lower-case hex digits, an answer's `x-gateway-cache-key`), or the
 * `x-request-id` of the request whose answer was stored. Blank: nothing.
 */
export function purgeTarget(input: string): { kind: 'key'; key: string } | { kind: 'request'; id: string } | undefined {
  const text = input.trim();
  if (text === '') return undefined;
  if (CACHE_KEY.test(text.toLowerCase())) return { kind: 'key', key: text.toLowerCase() };
  return { kind: 'request', id: text };
}

/** The hit ratio as a figure and what it counts: `75%` over `3 of 4 lookups`; a dash before any lookup. */
export function hitRatio(
  stats: Pick<CacheStats, 'hits' | 'misses' | 'hit_rate'>,
  locale?: string,
): { value: string; hint: string } {
  const lookups = stats.hits + stats.misses;
  if (lookups === 0) return { value: '—', hint: 'no lookup yet' };
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(stats.hit_rate);
  return { value: percent, hint: `${stats.hits} of ${lookups} lookups` };
}

/** Bytes in the largest unit that keeps the number at least 1: `512 B`, `1.5 KB`, `3.2 MB`. */
export function bytesText(bytes: number, locale?: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
