/**
 * `Resource:Operation` permission lists (roles, management key scopes) as a grid: resources as rows, the four
 * operations as columns. Pure, so the screens and their tests share it.
 */

/** The operations of a permission, in the grid's column order (the API: View, Create, Update or Delete). */
export const OPERATIONS = ['View', 'Create', 'Update', 'Delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** `Resource:Operation` split in two; undefined when it is not of that form. */
export function splitPermission(permission: string): { resource: string; operation: Operation } | undefined {
  const [resource, operation, extra] = permission.split(':');
  if (!resource || extra !== undefined || !OPERATIONS.includes(operation as Operation)) return undefined;
  return { resource, operation: operation as Operation };
}

/**
 * The grid's rows: every resource named by any of the lists, sorted by name. The screens pass what the gateway
 * lists (the caller's own permissions, which for the admin are all of them, and every role's), so a resource the
 * gateway adds shows up without a change here.
 */
export function gridResources(...lists: ReadonlyArray<readonly string[] | ReadonlySet<string> | undefined>): string[] {
  const resources = new Set<string>();
  for (const list of lists)
    for (const p of list ?? []) {
      const split = splitPermission(p);
      if (split) resources.add(split.resource);
    }
  return [...resources].sort((a, b) => a.localeCompare(b));
}

/** One row of the grid: which operations are granted. */
export interface GridRow {
  resource: string;
  granted: Record<Operation, boolean>;
}

/** A permission list as rows over `resources` (a permission outside them is not shown: pass it in `resources`). */
export function gridOf(permissions: readonly string[], resources: readonly string[]): GridRow[] {
  const held = new Set(permissions);
  return resources.map((resource) => ({
    resource,
    granted: Object.fromEntries(OPERATIONS.map((op) => [op, held.has(`${resource}:${op}`)])) as Record<
      Operation,
      boolean
    >,
  }));
}

/** The rows back as the API's list: sorted, without duplicates. */
export function permissionsOf(rows: readonly GridRow[]): string[] {
  return rows.flatMap((row) => OPERATIONS.filter((op) => row.granted[op]).map((op) => `${row.resource}:${op}`)).sort();
}

/** The list with one permission switched on or off (sorted, without duplicates). */
export function toggle(permissions: readonly string[], permission: string, on: boolean): string[] {
  const next = new Set(permissions);
  if (on) next.add(permission);
  else next.delete(permission);
  return [...next].sort();
}

/**
 * The list with a whole row (a resource) or column (an operation) switched on or off. Only the cells `allowed`
 * accepts change (a caller cannot grant what it does not hold).
 */
export function toggleMany(
  permissions: readonly string[],
  cells: readonly string[],
  on: boolean,
  allowed: (permission: string) => boolean = () => true,
): string[] {
  const next = new Set(permissions);
  for (const cell of cells) {
    if (!allowed(cell)) continue;
    if (on) next.add(cell);
    else next.delete(cell);
  }
  return [...next].sort();
}

/** Each granted permission grouped by resource, in words: `Logs: View, Delete`. For a list's one-line summary. */
export function permissionSummary(permissions: readonly string[]): string[] {
  const rows = gridOf(permissions, gridResources(permissions));
  return rows.map((row) => `${row.resource}: ${OPERATIONS.filter((op) => row.granted[op]).join(', ')}`);
}

/** What a list grants beyond `held` (the permissions a caller could not grant). */
export function notHeld(permissions: readonly string[], held: ReadonlySet<string>, isAdmin: boolean): string[] {
  return isAdmin ? [] : permissions.filter((p) => !held.has(p));
}

/** The form field of an API refusal naming a list item (`permissions[3]`, `scopes[0]`): the grid as a whole. */
export function gridField(param: string, field: string): string | undefined {
  return param === field || param.startsWith(`${field}[`) ? field : undefined;
}
