import { describe, expect, it } from 'vitest';
import {
  canMove,
  caretLines,
  describeProblem,
  describeTargets,
  evaluationOrder,
  parsePairs,
  reorderUpdates,
  routingRuleRequest,
  routingRuleValues,
  splitModel,
  weightProblem,
  type RoutingRule,
} from './routing-rule-values';

let clock = 0;
function rule(name: string, priority: number, scope: RoutingRule['scope'] = 'global', scopeId: string | null = null) {
  clock += 1000;
  return {
    id: `id-${name}`,
    name,
    description: '',
    enabled: true,
    cel_expression: 'true',
    targets: [{ provider: 'openai', weight: 1 }],
    fallbacks: [],
    scope,
    scope_id: scopeId,
    priority,
    chain_rule: false,
    query: null,
    created_at: new Date(clock).toISOString(),
    updated_at: new Date(clock).toISOString(),
  } as RoutingRule;
}

describe('evaluation order and reordering', () => {
  const team = '11111111-1111-4111-8111-111111111111';
  const rules = [rule('g-late', 5), rule('g-first', 1), rule('t', 9, 'team', team), rule('g-tie', 5)];

  it('orders as the gateway: the most specific scope first, then priority, then creation', () => {
    expect(evaluationOrder(rules).map((r) => r.name)).toEqual(['t', 'g-first', 'g-late', 'g-tie']);
  });

  it('swaps two distinct priorities; renumbers a tie; never crosses scopes', () => {
    expect(reorderUpdates(rules, 'id-g-late', 'up')).toEqual([
      { id: 'id-g-late', name: 'g-late', priority: 1 },
      { id: 'id-g-first', name: 'g-first', priority: 5 },
    ]);
    // g-late and g-tie share priority 5 (creation decides): the scope is renumbered in the new order.
    expect(reorderUpdates(rules, 'id-g-tie', 'up')).toEqual([
      { id: 'id-g-first', name: 'g-first', priority: 0 },
      { id: 'id-g-tie', name: 'g-tie', priority: 10 },
      { id: 'id-g-late', name: 'g-late', priority: 20 },
    ]);
    expect(reorderUpdates(rules, 'id-g-first', 'up')).toEqual([]);
    expect(reorderUpdates(rules, 'id-t', 'down')).toEqual([]);
    expect(canMove(rules, 'id-t', 'down')).toBe(false);
    expect(canMove(rules, 'id-g-first', 'down')).toBe(true);
    expect(canMove(rules, 'id-g-tie', 'down')).toBe(false);
  });

  it('a renumbered order, applied, is the order asked for', () => {
    const updates = reorderUpdates(rules, 'id-g-tie', 'up');
    const applied = rules.map((r) => ({ ...r, priority: updates.find((u) => u.id === r.id)?.priority ?? r.priority }));
    expect(evaluationOrder(applied).map((r) => r.name)).toEqual(['t', 'g-first', 'g-tie', 'g-late']);
  });
});

describe('the form', () => {
  it('round-trips a rule and leaves blank optional target fields out', () => {
    const values = routingRuleValues();
    values.name = ' to-claude ';
    values.cel_expression = 'model == "gpt-4o"';
    values.targets = [
      { provider: 'anthropic', model: 'claude-sonnet-4-5', key_id: '', weight: '0.5' },
      { provider: '', model: 'gpt-4o-mini', key_id: '', weight: '0.5' },
    ];
    values.fallbacks = ['gemini'];
    values.priority = '3';
    expect(routingRuleRequest(values)).toEqual({
      name: 'to-claude',
      description: '',
      enabled: true,
      cel_expression: 'model == "gpt-4o"',
      targets: [
        { provider: 'anthropic', model: 'claude-sonnet-4-5', weight: 0.5 },
        { model: 'gpt-4o-mini', weight: 0.5 },
      ],
      fallbacks: ['gemini'],
      scope: 'global',
      scope_id: null,
      priority: 3,
      chain_rule: false,
    });
    expect(weightProblem(values)).toBeUndefined();
    values.targets[1]!.weight = '0.3';
    expect(weightProblem(values)).toBe('The weights must sum to 1 (they sum to 0.8)');
  });

  it('describes targets, the problem with its position, and the caret under it', () => {
    expect(describeTargets([{ provider: 'openai', model: 'gpt-4o', weight: 1 }])).toBe('openai/gpt-4o');
    expect(
      describeTargets([
        { provider: 'openai', weight: 0.75 },
        { model: 'm', weight: 0.25 },
      ]),
    ).toBe('openai (75 %), same provider/m (25 %)');
    expect(
      describeProblem({
        valid: false,
        message: 'cel_expression does not compile: at 2:12: found = but expecting end of input',
        position: { line: 2, column: 12, offset: 27 },
      }),
    ).toBe('Line 2, column 12: at 2:12: found = but expecting end of input');
    expect(caretLines('model == "a" &&\n  provider ==', { line: 2, column: 12 })).toEqual([
      '  provider ==',
      '           ^',
    ]);
  });

  it('reads name: value lines and a provider-prefixed model', () => {
    expect(parsePairs('X-Tier: premium\n\n x-b : a:b ')).toEqual({ pairs: { 'x-tier': 'premium', 'x-b': 'a:b' } });
    expect(parsePairs('ok: 1\nno colon')).toEqual({ badLine: 2 });
    expect(splitModel('openai/gpt-4o', ['openai'])).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(splitModel('meta-llama/Llama-3', ['openai'])).toEqual({ model: 'meta-llama/Llama-3' });
  });
});
