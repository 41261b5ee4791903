import { placeText, type Problem } from './load.js';
import { stepLabel, type Plan, type Step } from './plan.js';

const show = (value: unknown) => (value === undefined ? '(unset)' : JSON.stringify(value));

/** The plan as text: a count line, then `+` create, `~` update with one line per changed field, `-` delete. */
export function planText(plan: Plan): string {
  const count = (action: Step['action']) => plan.steps.filter((s) => s.action === action).length;
  if (plan.steps.length === 0) return 'No changes: the gateway matches the files.\n';
  const lines = [`Plan: ${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete.`, ''];
  for (const step of plan.steps) {
    const mark = { create: '+', update: '~', delete: '-' }[step.action];
    lines.push(`${mark} ${stepLabel(step)}`);
    for (const diff of step.diffs ?? []) lines.push(`    ${diff.field}: ${show(diff.from)} -> ${show(diff.to)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The plan as data (`-o json` / `-o yaml`). */
export function planData(plan: Plan): unknown {
  return {
    create: plan.steps.filter((s) => s.action === 'create').map((s) => ({ kind: s.kind.name, name: s.identity })),
    update: plan.steps
      .filter((s) => s.action === 'update')
      .map((s) => ({ kind: s.kind.name, name: s.identity, changes: s.diffs })),
    delete: plan.steps.filter((s) => s.action === 'delete').map((s) => ({ kind: s.kind.name, name: s.identity })),
  };
}

export function problemsText(problems: readonly Problem[]): string {
  const lines = problems.map((p) => {
    const path = p.place.path.length ? ` (${p.place.path.join('.')})` : '';
    return `${placeText(p.place)}: ${p.message}${path}`;
  });
  return `${lines.join('\n')}\n`;
}
