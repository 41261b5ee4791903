import type { Kind, KindName, Registry } from './kind.js';
import { KINDS, kindOf, TEAM_OWNED } from './kinds/index.js';
import { leaves, nest } from './kinds/others.js';
import type { LiveObject, LiveState } from './live.js';
import type { Desired, LoadedFiles, Problem } from './load.js';
import { isObj, matches, sameValue, type Obj } from './values.js';

export interface FieldDiff {
  field: string;
  from: unknown;
  to: unknown;
}

export interface Step {
  action: 'create' | 'update' | 'delete';
  kind: Kind;
  identity: string;
  desired?: Desired;
  live?: LiveObject;
  /** The fields to send on update (file form). */
  changed?: Obj;
  diffs?: FieldDiff[];
}

export interface Plan {
  steps: Step[];
  problems: Problem[];
}

/** How a step names its object: `team ml`, `routing rule fallback (team ml)`. */
export function stepLabel(step: Pick<Step, 'kind' | 'identity'>): string {
  if (step.kind.name === 'routing_rules') {
    const [scope, scopeName, ...name] = step.identity.split(':');
    return `${step.kind.noun} ${name.join(':')}${scope === 'global' ? '' : ` (${scope} ${scopeName})`}`;
  }
  if (step.kind.name === 'config') return 'runtime config';
  return `${step.kind.noun} ${step.identity}`;
}

/** The fields of `desired` whose values differ from `live` (only fields the file gives are managed). */
function diffFields(kind: Kind, desired: Obj, live: LiveObject): { changed: Obj; diffs: FieldDiff[] } {
  if (kind.name === 'config') {
    const have = new Map(leaves((live.raw as { config?: unknown }).config));
    const changedLeaves = leaves(desired).filter(([path, value]) => !sameValue(have.get(path), value));
    return {
      changed: nest(changedLeaves),
      diffs: changedLeaves.map(([field, to]) => ({ field, from: have.get(field), to })),
    };
  }
  const changed: Obj = {};
  const diffs: FieldDiff[] = [];
  for (const [field, value] of Object.entries(desired)) {
    if (matches(value, live.form[field])) continue;
    changed[field] = value;
    diffs.push({ field, from: live.form[field], to: value });
  }
  return { changed, diffs };
}

/**
 * The plan that makes the gateway hold what the files say, and every problem that stops it (before any write):
 * objects named twice, references to objects that exist neither in the files nor on the gateway (or that --prune
 * would delete), objects outside the file's `select`, enterprise kinds on an open-source gateway.
 */
export function makePlan(
  files: LoadedFiles,
  live: LiveState,
  registry: Registry,
  options: { prune: boolean; enterprise: boolean; selectTeam?: string },
): Plan {
  const problems: Problem[] = [];
  const byKind = new Map<KindName, Map<string, Desired>>();
  for (const d of files.desired) {
    const kind = kindOf(d.kind);
    if (kind.enterprise && !options.enterprise) {
      problems.push({ place: d.place, message: `${kind.noun}s exist in the enterprise edition only` });
      continue;
    }
    const identity = kind.identity(d.form);
    const seen = byKind.get(d.kind) ?? new Map<string, Desired>();
    byKind.set(d.kind, seen);
    const first = seen.get(identity);
    if (first) {
      problems.push({
        place: d.place,
        message: `${stepLabel({ kind, identity })} is also defined at ${first.place.file}:${first.place.line ?? 0}`,
      });
    } else seen.set(identity, d);
  }

  // What select-ed files may touch, and who owns an object (looked up in the files first, then on the gateway).
  const find = (kind: KindName, name: string): Obj | undefined =>
    byKind.get(kind)?.get(name)?.form ?? live.get(kind)?.get(name)?.form;
  const ownedBySelection = (kind: Kind, form: Obj) =>
    !options.selectTeam || (TEAM_OWNED.includes(kind.name) && kind.ownerTeam?.(form, find) === options.selectTeam);
  if (options.selectTeam) {
    for (const d of files.desired) {
      const kind = kindOf(d.kind);
      if (!ownedBySelection(kind, d.form)) {
        problems.push({
          place: d.place,
          message: `${stepLabel({ kind, identity: kind.identity(d.form) })} is not owned by team ${options.selectTeam}, which the apply is scoped to`,
        });
      }
    }
  }

  const steps: Step[] = [];
  const deletes: Step[] = [];
  for (const kind of KINDS) {
    if (!files.managed.has(kind.name) || (kind.enterprise && !options.enterprise)) continue;
    const wanted = byKind.get(kind.name) ?? new Map<string, Desired>();
    const have = live.get(kind.name) ?? new Map<string, LiveObject>();
    for (const [identity, desired] of wanted) {
      const current = have.get(identity);
      if (!current) {
        if (kind.fixed)
          problems.push({ place: desired.place, message: `there is no ${kind.noun} ${identity} to change` });
        else steps.push({ action: 'create', kind, identity, desired });
        continue;
      }
      const { changed, diffs } = diffFields(kind, desired.form, current);
      if (diffs.length) steps.push({ action: 'update', kind, identity, desired, live: current, changed, diffs });
    }
    if (options.prune && !kind.fixed) {
      for (const [identity, current] of have) {
        if (!wanted.has(identity) && ownedBySelection(kind, current.form)) {
          deletes.push({ action: 'delete', kind, identity, live: current });
        }
      }
    }
  }

  // References: to an object the files create, or one the gateway holds and the plan does not delete.
  const deleted = new Set(deletes.map((s) => `${s.kind.name}\u0000${s.kind.refName?.(s.live!.form) ?? s.identity}`));
  const created = new Set<string>();
  for (const [kindName, wanted] of byKind) {
    const kind = kindOf(kindName);
    for (const d of wanted.values()) created.add(`${kindName}\u0000${kind.refName?.(d.form) ?? kind.identity(d.form)}`);
  }
  for (const d of files.desired) {
    for (const ref of kindOf(d.kind).refs?.(d.form) ?? []) {
      const key = `${ref.kind}\u0000${ref.name}`;
      const noun = kindOf(ref.kind).noun;
      const place = d.at(ref.field);
      if (created.has(key)) continue;
      if (!registry.has(ref.kind, ref.name)) problems.push({ place, message: `unknown ${noun} '${ref.name}'` });
      else if (deleted.has(key)) problems.push({ place, message: `${noun} '${ref.name}' would be deleted by --prune` });
    }
  }
  return { steps: [...steps, ...deletes.reverse()], problems };
}

/** The permissions the plan's writes need (`Teams:Create`), each with the first object that needs it. */
export function neededPermissions(plan: Plan): Map<string, string> {
  const needed = new Map<string, string>();
  const verb = { create: 'Create', update: 'Update', delete: 'Delete' } as const;
  for (const step of plan.steps) {
    const operation = step.action === 'create' ? (step.kind.createOperation ?? 'Create') : verb[step.action];
    const permission = `${step.kind.resource}:${operation}`;
    if (!needed.has(permission)) needed.set(permission, `${step.action} ${stepLabel(step)}`);
    // Linking a team to customers is a team update.
    if (
      step.kind.name === 'teams' &&
      step.action === 'create' &&
      isObj(step.desired?.form) &&
      Array.isArray(step.desired.form.customers) &&
      step.desired.form.customers.length
    ) {
      if (!needed.has('Teams:Update')) needed.set('Teams:Update', `link the customers of ${stepLabel(step)}`);
    }
  }
  return needed;
}
