import type { Schema } from '../../api/schemas';
import { isBlank } from '../../shared/forms/constraints';
import { formatCost } from '../../shared/format/format';

type Budget = Schema<'Budget'>;
type BudgetOverrideRequest = Schema<'BudgetOverrideRequest'>;

/** A typed number, or the text as typed when it is not one (the constraints then name the field). */
const numberOf = (value: string): number | string => {
  const trimmed = value.trim();
  const n = Number(trimmed);
  return trimmed !== '' && Number.isFinite(n) ? n : trimmed;
};

/** A budget override as the form holds it. */
export interface BudgetOverrideValues extends Record<string, unknown> {
  amount: string;
  mode: 'cycles' | 'forever';
  cycles: string;
}

export function budgetOverrideValues(current?: Schema<'BudgetOverride'> | null): BudgetOverrideValues {
  return {
    amount: current ? String(current.amount) : '',
    mode: current?.mode ?? 'cycles',
    cycles: current?.cycles ? String(current.cycles) : '1',
  };
}

/** `cycles` only with mode cycles (the API refuses it otherwise). */
export function budgetOverrideRequest(values: BudgetOverrideValues): BudgetOverrideRequest {
  return {
    amount: numberOf(values.amount) as number,
    mode: values.mode,
    ...(values.mode === 'cycles' ? { cycles: numberOf(values.cycles) as number } : {}),
  };
}

export function budgetOverrideProblems(values: BudgetOverrideValues): Record<string, string> {
  const problems: Record<string, string> = {};
  if (isBlank(values.amount)) problems.amount = 'Required';
  if (values.mode === 'cycles' && isBlank(values.cycles)) problems.cycles = 'Required with “for a number of windows”';
  return problems;
}

/** The stored override in words: `+$50.00 for ever`, `+$5.00 for 2 windows`. */
export function overrideLine(budget: Pick<Budget, 'override'>, locale?: string): string | undefined {
  const o = budget.override;
  if (!o) return undefined;
  const amount = `+${formatCost(o.amount, { locale })}`;
  if (o.mode === 'forever') return `${amount} for ever`;
  return `${amount} for ${o.cycles === 1 ? '1 window' : `${o.cycles} windows`}`;
}
