import type { Schema } from '../../api/schemas';

export type RoutingRule = Schema<'RoutingRule'>;
export type RoutingRuleValidation = Schema<'RoutingRuleValidation'>;
export type RoutingRuleTryRequest = Schema<'RoutingRuleTryRequest'>;
export type RoutingRuleTryResult = Schema<'RoutingRuleTryResult'>;
type CreateRequest = Schema<'RoutingRuleCreateRequest'>;
type Target = Schema<'RoutingRuleTarget'>;
type Scope = NonNullable<CreateRequest['scope']>;

export const SCOPES: readonly { value: Scope; label: string }[] = [
  { value: 'global', label: 'Every request (global)' },
  { value: 'team', label: 'A team' },
  { value: 'customer', label: 'A customer' },
  { value: 'virtual_key', label: 'A virtual key' },
];

/** The scopes in evaluation order: the most specific first (as the gateway evaluates them). */
const SCOPE_RANK: Record<Scope, number> = { virtual_key: 0, team: 1, customer: 2, global: 3 };

export interface TargetValues extends Record<string, unknown> {
  provider: string;
  model: string;
  key_id: string;
  weight: string;
}

/** The rule form's values, named as the API's fields (a refusal's `error.param` lands on its input). */
export interface RoutingRuleValues extends Record<string, unknown> {
  name: string;
  description: string;
  enabled: boolean;
  cel_expression: string;
  targets: TargetValues[];
  fallbacks: string[];
  scope: Scope;
  scope_id: string;
  priority: string;
  chain_rule: boolean;
}

export function emptyTarget(): TargetValues {
  return { provider: '', model: '', key_id: '', weight: '1' };
}

export function routingRuleValues(rule?: RoutingRule): RoutingRuleValues {
  return {
    name: rule?.name ?? '',
    description: rule?.description ?? '',
    enabled: rule?.enabled ?? true,
    cel_expression: rule?.cel_expression ?? '',
    targets: rule
      ? rule.targets.map((t) => ({
          provider: t.provider ?? '',
          model: t.model ?? '',
          key_id: t.key_id ?? '',
          weight: String(t.weight),
        }))
      : [emptyTarget()],
    fallbacks: [...(rule?.fallbacks ?? [])],
    scope: rule?.scope ?? 'global',
    scope_id: rule?.scope_id ?? '',
    priority: String(rule?.priority ?? 0),
    chain_rule: rule?.chain_rule ?? false,
  };
}

const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text.trim()));

/** The create (and full update) request of the form's values: blank optional fields left out. */
export function routingRuleRequest(values: RoutingRuleValues): CreateRequest {
  const targets: Target[] = values.targets.map((t) => {
    const target: Target = { weight: numberOf(t.weight) };
    if (t.provider) target.provider = t.provider as Target['provider'];
    if (t.model.trim()) target.model = t.model.trim();
    if (t.key_id.trim()) target.key_id = t.key_id.trim();
    return target;
  });
  return {
    name: values.name.trim(),
    description: values.description,
    enabled: values.enabled,
    cel_expression: values.cel_expression,
    targets,
    fallbacks: values.fallbacks,
    scope: values.scope,
    scope_id: values.scope === 'global' ? null : values.scope_id.trim(),
    priority: numberOf(values.priority),
    chain_rule: values.chain_rule,
  };
}

/** Weights that will not sum to 1: said on the client, where the API would refuse `targets` the same way. */
export function weightProblem(values: RoutingRuleValues): string | undefined {
  const sum = values.targets.reduce((total, t) => total + numberOf(t.weight), 0);
  if (!Number.isFinite(sum) || Math.abs(sum - 1) <= 1e-6) return undefined;
  return `The weights must sum to 1 (they sum to ${Number(sum.toFixed(6))})`;
}

/** What a rule sends requests to, as one line: `openai/gpt-4o (75 %), anthropic (25 %)`. */
export function describeTargets(targets: readonly Target[]): string {
  return targets
    .map((t) => {
      const where = [t.provider ?? 'same provider', t.model].filter(Boolean).join('/');
      return targets.length > 1 ? `${where} (${Math.round(t.weight * 1000) / 10} %)` : where;
    })
    .join(', ');
}

/** The rule's scope as a person reads it. */
export function describeScope(rule: Pick<RoutingRule, 'scope' | 'scope_id'>): string {
  if (rule.scope === 'global') return 'global';
  return `${rule.scope.replace('_', ' ')} ${rule.scope_id ?? ''}`.trim();
}

/** The rules in the gateway's evaluation order: scope (most specific first), priority, creation time. */
export function evaluationOrder(rules: readonly RoutingRule[]): RoutingRule[] {
  return [...rules].sort(
    (a, b) =>
      SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope] ||
      a.priority - b.priority ||
      Date.parse(a.created_at) - Date.parse(b.created_at),
  );
}

const sameScope = (a: RoutingRule, b: RoutingRule) => a.scope === b.scope && (a.scope_id ?? '') === (b.scope_id ?? '');

/**
 * The priority changes that move `ruleId` one place up or down among the rules of its scope (rules of other scopes
 * are never evaluated against it, so the order between scopes is fixed). Two distinct priorities are swapped; equal
 * ones (ordered by creation time) renumber the scope's rules 0, 10, 20… in the new order, changing only those that
 * differ. Empty when the rule is already first or last.
 */
export function reorderUpdates(
  rules: readonly RoutingRule[],
  ruleId: string,
  direction: 'up' | 'down',
): { id: string; name: string; priority: number }[] {
  const ordered = evaluationOrder(rules);
  const rule = ordered.find((r) => r.id === ruleId);
  if (!rule) return [];
  const group = ordered.filter((r) => sameScope(r, rule));
  const at = group.indexOf(rule);
  const other = group[direction === 'up' ? at - 1 : at + 1];
  if (!other) return [];
  if (other.priority !== rule.priority) {
    return [
      { id: rule.id, name: rule.name, priority: other.priority },
      { id: other.id, name: other.name, priority: rule.priority },
    ];
  }
  const moved = [...group];
  const to = group.indexOf(other);
  moved[at] = other;
  moved[to] = rule;
  return moved.flatMap((r, i) => (r.priority === i * 10 ? [] : [{ id: r.id, name: r.name, priority: i * 10 }]));
}

/** Whether the rule can move up (down) within its scope. */
export function canMove(rules: readonly RoutingRule[], ruleId: string, direction: 'up' | 'down'): boolean {
  const ordered = evaluationOrder(rules);
  const rule = ordered.find((r) => r.id === ruleId);
  if (!rule) return false;
  const group = ordered.filter((r) => sameScope(r, rule));
  const at = group.indexOf(rule);
  return direction === 'up' ? at > 0 : at < group.length - 1;
}

/** The expression's line at a problem with a caret under the column: what the editor shows below the field. */
export function caretLines(expression: string, position: { line: number; column: number }): [string, string] {
  const line = expression.split('\n')[position.line - 1] ?? '';
  return [line, `${' '.repeat(Math.max(0, position.column - 1))}^`];
}

/** `Line 2, column 12: <message>`, the message without the API's own "cel_expression does not compile: " lead. */
export function describeProblem(validation: RoutingRuleValidation): string {
  const message = (validation.message ?? 'The expression does not compile').replace(
    /^cel_expression does not compile: /,
    '',
  );
  const at = validation.position;
  return at ? `Line ${at.line}, column ${at.column}: ${message}` : message;
}

/** `name: value` lines (headers, query parameters) as a map; blank lines skipped. Undefined names a bad line. */
export function parsePairs(text: string): { pairs: Record<string, string> } | { badLine: number } {
  const pairs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { badLine: i + 1 };
    pairs[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { pairs };
}

/** A sample request's model as a caller writes it: `openai/gpt-4o` names the provider; a bare model does not. */
export function splitModel(value: string, providers: readonly string[]): { provider?: string; model: string } {
  const slash = value.indexOf('/');
  if (slash > 0 && slash < value.length - 1 && providers.includes(value.slice(0, slash))) {
    return { provider: value.slice(0, slash), model: value.slice(slash + 1) };
  }
  return { model: value.trim() };
}
