import type { KindContext } from './kind.js';
import { stepLabel, type Step } from './plan.js';

export interface Outcome {
  applied: Step[];
  failed?: { step: Step; error: unknown };
  notApplied: Step[];
  /** Values shown once by creates (virtual keys): label → value. */
  shown: Map<string, string>;
}

/** Requests in flight at once within one kind and action (objects of one kind do not depend on each other). */
const CONCURRENCY = 8;

async function runStep(ctx: KindContext, step: Step, shown: Map<string, string>): Promise<void> {
  const { kind } = step;
  if (step.action === 'create') {
    const result = await kind.create!(ctx, step.desired!.form);
    ctx.registry.set(kind.name, result.id, kind.refName?.(step.desired!.form) ?? step.identity);
    if (typeof result.shown?.value === 'string') shown.set(stepLabel(step), result.shown.value);
  } else if (step.action === 'update') {
    await kind.update(ctx, step.live!.id, step.changed!, step.desired!.form, step.live!.form);
  } else {
    await kind.delete!(ctx, step.live!.id, step.live!.form);
  }
}

/**
 * Runs the steps in order, a kind's steps of one action side by side. The first refusal stops the run: what was
 * applied and what was not are both reported (steps in flight with the failed one finish first).
 */
export async function execute(
  ctx: KindContext,
  steps: readonly Step[],
  onApplied: (step: Step) => void,
): Promise<Outcome> {
  const applied: Step[] = [];
  const shown = new Map<string, string>();
  let failed: Outcome['failed'];
  let at = 0;
  while (at < steps.length && !failed) {
    const first = steps[at]!;
    let end = at;
    while (end < steps.length && steps[end]!.kind === first.kind && steps[end]!.action === first.action) end += 1;
    const group = steps.slice(at, end);
    let next = 0;
    const worker = async () => {
      while (next < group.length && !failed) {
        const step = group[next++]!;
        try {
          await runStep(ctx, step, shown);
          applied.push(step);
          onApplied(step);
        } catch (error) {
          failed ??= { step, error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, group.length) }, worker));
    at = end;
  }
  const done = new Set(applied);
  return { applied, failed, notApplied: steps.filter((s) => !done.has(s)), shown };
}
