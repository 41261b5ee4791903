import { describe, expect, it } from 'vitest';
import { circuitOf, conditionText, policyFormValues, policyProblems, policyRequest } from './circuit-helpers';

describe('circuitOf', () => {
  it('reads a main circuit and a key sub-circuit', () => {
    expect(circuitOf('mini-overload')).toEqual({ policy: 'mini-overload' });
    expect(circuitOf('mini-overload\u0000key-1')).toEqual({ policy: 'mini-overload', keyId: 'key-1' });
  });
});

describe('conditionText', () => {
  it('joins the signals by the operator', () => {
    expect(
      conditionText({
        operator: 'AND',
        signals: [
          { source: 'response_header', header_name: 'x-a', header_value: 'true' },
          { source: 'response_header', header_name: 'x-b', header_contains: 'busy' },
          { source: 'response_header', header_name: 'x-c' },
        ],
      }),
    ).toBe('x-a = true AND x-b contains busy AND x-c present');
  });
});

describe('policy form', () => {
  it('turns the values into the request, and back', () => {
    const values = {
      ...policyFormValues(),
      name: 'mini-overload',
      primary_model: 'gpt-4o-mini',
      fallback_model: 'claude-3-5-haiku-latest',
      signals: [
        { header_name: 'x-overloaded', match: 'equals' as const, text: 'true' },
        { header_name: 'x-busy', match: 'present' as const, text: 'ignored' },
      ],
    };
    const request = policyRequest(values);
    expect(request).toEqual({
      name: 'mini-overload',
      primary_provider: 'openai',
      primary_model: 'gpt-4o-mini',
      fallback_provider: 'anthropic',
      fallback_model: 'claude-3-5-haiku-latest',
      condition: {
        operator: 'OR',
        signals: [
          { source: 'response_header', header_name: 'x-overloaded', header_value: 'true' },
          { source: 'response_header', header_name: 'x-busy' },
        ],
      },
      default_cooldown: '30s',
      cooldown_header: null,
      enabled: true,
    });
    const view = {
      ...request,
      condition: request.condition as never,
      enabled: true,
      primary_key_ids: [],
      default_cooldown: '30s',
      cooldown_header: null,
      created_at: '',
      updated_at: '',
    };
    expect(policyFormValues(view).signals).toEqual([
      { header_name: 'x-overloaded', match: 'equals', text: 'true' },
      { header_name: 'x-busy', match: 'present', text: '' },
    ]);
  });
  it('refuses a fallback equal to the primary and a match without its text', () => {
    const values = {
      ...policyFormValues(),
      fallback_provider: 'openai',
      primary_model: 'm',
      fallback_model: 'm',
      signals: [{ header_name: '', match: 'contains' as const, text: '' }],
    };
    expect(policyProblems(values)).toEqual({
      fallback_model: 'The fallback must differ from the primary',
      'signals.0.header_name': 'A header name is required',
      'signals.0.text': 'What to match is required',
    });
  });
});
