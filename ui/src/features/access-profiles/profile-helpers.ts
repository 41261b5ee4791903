import { AccessProfileProviderConfigInput, PropagateAccessProfileRequest } from '../../api/constraints.gen';
import type { Schema } from '../../api/schemas';

export type ProfileView = Schema<'AccessProfile'>;
export type ProfileCreate = Schema<'CreateAccessProfileRequest'>;
export type PropagationField = Schema<'PropagateAccessProfileRequest'>['fields'][number];
export type PropagationResult = Schema<'PropagationResult'>;
export type PropagationStatus = Schema<'PropagationStatus'>;
type ProviderId = NonNullable<ProfileCreate['provider_configs']>[number]['provider_name'];

/** The fields a propagation can copy onto users' copies, in the API's order. */
export const PROPAGATION_FIELDS = (PropagateAccessProfileRequest.properties.fields?.items?.enum ??
  []) as PropagationField[];

export const PROVIDERS = (AccessProfileProviderConfigInput.properties.provider_name?.enum ?? []) as string[];

/** How a propagation field reads in the UI. */
export const FIELD_LABELS: Record<PropagationField, string> = {
  provider_configs: 'Providers and models',
  budgets: 'Budgets',
  rate_limit: 'Rate limit',
  mcp_tool_groups: 'MCP tool groups',
  mcp_servers: 'MCP servers',
  mcp_tool_overrides: 'MCP tool overrides',
};

// ---------------------------------------------------------------------------------------------------------------
// Versions and their diff

/** A template field of a version's snapshot; bookkeeping (`id`, `version`, dates) is not compared. */
const NOT_COMPARED = new Set(['id', 'version', 'created_at', 'updated_at']);
/** The order rows are listed in: the template's own fields first, then what a propagation copies. */
const FIELD_ORDER = ['name', 'description', 'is_active', 'tags', 'calendar_aligned', ...PROPAGATION_FIELDS];

/** A version's snapshot (JSON text of the template as GET showed it), or an empty object if it cannot be read. */
export function parseSnapshot(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One value as a person reads it: text as is, lists of plain values joined, nothing as an em dash. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length === 0) return 'none';
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.join(', ');
  return JSON.stringify(value);
}

/**
 * The leaves of a value by path (`rate_limit.request_max_limit`, `budgets[0].max_limit`); lists of plain values
 * (tags, models) are one leaf, and an empty list or object is one leaf too, so a removal still shows.
 */
export function flatten(value: unknown, path: string, into: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (Array.isArray(value)) {
    if (value.length === 0 || value.every((v) => typeof v !== 'object' || v === null)) into.set(path, value);
    else value.forEach((item, i) => flatten(item, `${path}[${i}]`, into));
  } else if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) into.set(path, value);
    for (const [key, item] of entries) flatten(item, path ? `${path}.${key}` : key, into);
  } else into.set(path, value);
  return into;
}

export interface DiffRow {
  /** `rate_limit.request_max_limit` */
  field: string;
  change: 'added' | 'removed' | 'changed';
  before: string;
  after: string;
}

function fieldRank(path: string): number {
  const top = path.split(/[.[]/)[0]!;
  const at = FIELD_ORDER.indexOf(top);
  return at < 0 ? FIELD_ORDER.length : at;
}

/** A snapshot's leaves by path, bookkeeping (ids, versions, timestamps) left out. */
function leaves(snapshot: Record<string, unknown>): Map<string, unknown> {
  return flatten(Object.fromEntries(Object.entries(snapshot).filter(([key]) => !NOT_COMPARED.has(key))), '');
}

/** Rows in the template's field order; within one top-level field the paths keep the snapshot's own order (stable). */
function inFieldOrder<Row extends { field: string }>(rows: Row[]): Row[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => fieldRank(x.row.field) - fieldRank(y.row.field) || x.index - y.index)
    .map(({ row }) => row);
}

/** One stored version as a person reads it: every field of its snapshot, in the template's order. */
export function snapshotFields(snapshot: Record<string, unknown>): Array<{ field: string; value: string }> {
  return inFieldOrder([...leaves(snapshot)].map(([field, value]) => ({ field, value: valueText(value) })));
}

/** Field by field, what changed from the snapshot `from` to `to` (only the changed leaves, in the template's order). */
export function versionDiff(from: Record<string, unknown>, to: Record<string, unknown>): DiffRow[] {
  const before = leaves(from);
  const after = leaves(to);
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  const rows: DiffRow[] = [];
  const absent = (v: unknown) => v === undefined || v === null;
  // An empty list or object on one side and its items on the other: the items' rows say it all.
  const hasItems = (field: string) => paths.some((p) => p.startsWith(`${field}.`) || p.startsWith(`${field}[`));
  for (const field of paths) {
    const a = before.get(field);
    const b = after.get(field);
    if (JSON.stringify(a) === JSON.stringify(b) || (absent(a) && absent(b)) || hasItems(field)) continue;
    rows.push({
      field,
      change: absent(a) ? 'added' : absent(b) ? 'removed' : 'changed',
      before: valueText(a),
      after: valueText(b),
    });
  }
  return inFieldOrder(rows);
}

// ---------------------------------------------------------------------------------------------------------------
// Propagation: progress and results

export interface Progress {
  done: number;
  total: number;
  /** 0 to 100, for the bar. */
  percent: number;
  /** What a person reads: `120 / 500`. */
  text: string;
  /** Users whose copy could not take the fields; known once the job finished. */
  failed?: number;
  finished: boolean;
}

/** The progress of a tracked propagation (`processed` of `total`; the result's counts once it completed). */
export function progressOf(status: Pick<PropagationStatus, 'status' | 'processed' | 'total' | 'result'>): Progress {
  const total = status.total;
  const done = status.status === 'completed' ? total : Math.min(status.processed, total);
  const percent = total > 0 ? Math.round((done / total) * 1000) / 10 : status.status === 'completed' ? 100 : 0;
  return {
    done,
    total,
    percent,
    text: `${done} / ${total}`,
    ...(status.result ? { failed: status.result.failed_users } : {}),
    finished: status.status !== 'running',
  };
}

/** The progress of a propagation whose call answered with its result at once (it finished within the wait). */
export function progressOfResult(result: PropagationResult): Progress {
  const total = result.affected_users + result.failed_users + result.skipped_users;
  return progressOf({ status: 'completed', processed: total, total, result });
}

/** One line on a dry run's (or a run's) outcome. */
export function resultSummary(result: PropagationResult): string {
  const { affected_users: affected, failed_users: failed, skipped_users: skipped } = result;
  if (affected === 0 && failed === 0)
    return result.applied
      ? `Nothing changed: ${skipped} selected ${plural(skipped, 'copy', 'copies')} already matched the template.`
      : `No changes: every selected copy (${skipped}) already matches the template on these fields.`;
  const users = `${affected} ${plural(affected, 'user', 'users')}`;
  return result.applied
    ? `${users} changed, ${skipped} unchanged, ${failed} failed.`
    : `${users} would change, ${skipped} unchanged, ${failed} would fail.`;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** The errors of a result per user: `vk_sync_errors` entries are `user <id>: <reason>`. */
export function failuresOf(result: PropagationResult): Array<{ user: string; error: string }> {
  return result.vk_sync_errors.map((entry) => {
    const match = /^user ([^:]+): ([\s\S]*)$/.exec(entry);
    return match ? { user: match[1]!, error: match[2]! } : { user: '—', error: entry };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The template form

export interface TemplateFormValues extends Record<string, unknown> {
  name: string;
  description: string;
  tags: string;
  is_active: boolean;
  providers: Array<{ provider_name: string; models: string }>;
  budgets: Array<{ max_limit: number | string; reset_duration: string }>;
  request_max_limit: number | string;
  request_reset_duration: string;
  token_max_limit: number | string;
  token_reset_duration: string;
  /** Ids of the MCP tool groups the template grants. */
  mcp_tool_groups: string[];
}

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const numberOrNull = (v: number | string) => (v === '' || v === null ? null : Number(v));

/** The form's values for a new template, or for editing `view`. */
export function templateFormValues(view?: ProfileView): TemplateFormValues {
  const rate = view?.rate_limit;
  return {
    name: view?.name ?? '',
    description: view?.description ?? '',
    tags: view?.tags.join(', ') ?? '',
    is_active: view?.is_active ?? true,
    providers:
      view?.provider_configs.map((c) => ({
        provider_name: c.provider_name,
        models: c.all_models_allowed ? '' : c.allowed_models.join(', '),
      })) ?? [],
    budgets: view?.budgets.map((b) => ({ max_limit: b.max_limit, reset_duration: b.reset_duration })) ?? [],
    request_max_limit: rate?.request_max_limit ?? '',
    request_reset_duration: rate?.request_reset_duration ?? '',
    token_max_limit: rate?.token_max_limit ?? '',
    token_reset_duration: rate?.token_reset_duration ?? '',
    mcp_tool_groups: view?.mcp_tool_groups.map((g) => g.tool_group_id) ?? [],
  };
}

/**
 * The request the form stands for (create; an update sends the same, and leaves the MCP fields the form does not
 * edit as they are). An empty rate limit is `null` (none); a provider row without models allows every model. The tool
 * groups are sent unless they are those of `previous` (an edit that leaves them as they are does not send them: the
 * API checks groups that are sent, and keeps omitted fields).
 */
export function templateRequest(values: TemplateFormValues, previous?: ProfileView): ProfileCreate {
  const before = previous?.mcp_tool_groups.map((g) => g.tool_group_id);
  const groupsKept =
    before !== undefined &&
    before.length === values.mcp_tool_groups.length &&
    before.every((id, i) => id === values.mcp_tool_groups[i]);
  const rate = {
    request_max_limit: numberOrNull(values.request_max_limit),
    request_reset_duration: values.request_reset_duration.trim() || null,
    token_max_limit: numberOrNull(values.token_max_limit),
    token_reset_duration: values.token_reset_duration.trim() || null,
  };
  const hasRate = Object.values(rate).some((v) => v !== null);
  return {
    name: values.name.trim(),
    description: values.description,
    tags: list(values.tags),
    is_active: values.is_active,
    provider_configs: values.providers.map((p) => {
      const models = list(p.models);
      return {
        provider_name: p.provider_name as ProviderId,
        all_models_allowed: models.length === 0,
        allowed_models: models,
      };
    }),
    budgets: values.budgets.map((b) => ({
      max_limit: Number(b.max_limit),
      reset_duration: b.reset_duration.trim(),
    })),
    rate_limit: hasRate ? rate : null,
    ...(groupsKept ? {} : { mcp_tool_groups: values.mcp_tool_groups.map((id) => ({ tool_group_id: id })) }),
  };
}

/** The form's own checks: a limit needs its window and the other way round. */
export function templateProblems(values: TemplateFormValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const kind of ['request', 'token'] as const) {
    const max = values[`${kind}_max_limit`];
    const window = values[`${kind}_reset_duration`].trim();
    if (max !== '' && !window) problems[`${kind}_reset_duration`] = 'A window is required with a limit';
    if (max === '' && window) problems[`${kind}_max_limit`] = 'A limit is required with a window';
  }
  values.budgets.forEach((b, i) => {
    if (b.max_limit === '') problems[`budgets.${i}.max_limit`] = 'An amount is required';
    if (!b.reset_duration.trim()) problems[`budgets.${i}.reset_duration`] = 'A reset window is required';
  });
  return problems;
}
