import { describe, expect, it } from 'vitest';
import { compileRule, type RuleVariables } from '../../src/modules/governance/routing-rules/routing-rule-cel.js';

const vars: RuleVariables = {
  model: 'gpt-4o',
  provider: 'openai',
  request_type: 'chat_completion',
  headers: new Map([['x-tier', 'premium']]),
  params: new Map(),
  virtual_key_id: '',
  virtual_key_name: '',
  team_id: '',
  team_name: '',
  customer_id: '',
  customer_name: '',
  budget_used: 10,
  tokens_used: 0,
  request: 0,
};

function run(expression: string): unknown {
  const compiled = compileRule(expression);
  return 'problem' in compiled ? { problem: compiled.problem } : compiled.evaluate(vars);
}

describe('routing rule CEL', () => {
  it('evaluates the variables', () => {
    expect(run('model == "gpt-4o" && provider in ["openai"]')).toEqual({ matched: true });
    expect(run('headers["x-tier"] == "premium"')).toEqual({ matched: true });
    expect(run('[1, 2].exists(x, x > 1)')).toEqual({ matched: true });
    expect(run('model.lowerAscii().startsWith("gpt")')).toEqual({ matched: true });
    expect(run('budget_used > 5.0')).toEqual({ matched: true });
    expect(run('budget_used > 5')).toEqual({ matched: true });
    expect(run('has(headers.x)')).toEqual({ matched: false });
  });

  it('refuses what cannot compile, naming the problem', () => {
    expect(run('model ==')).toMatchObject({ problem: expect.stringContaining('at 1:') });
    expect(run('foo == 1')).toEqual({ problem: "unknown variable 'foo'" });
    expect(run('nofn(model)')).toEqual({ problem: "unknown function 'nofn'" });
  });

  it('reports failures when run', () => {
    expect(run('headers["nope"] == "a"')).toMatchObject({ error: expect.stringMatching(/field not found/) });
    expect(run('model > 5')).toMatchObject({ error: expect.any(String) });
    expect(run('"a"')).toMatchObject({ error: expect.stringContaining('not a boolean') });
  });

  it('tells which rules read usage', () => {
    const a = compileRule('request > 50.0 || model == "x"');
    const b = compileRule('model == "x"');
    expect('problem' in a ? undefined : a.usesUsage).toBe(true);
    expect('problem' in b ? undefined : b.usesUsage).toBe(false);
  });
});
