import { describe, expect, it } from 'vitest';
import { argumentProblems, argumentsTemplate, headersOf, parseArguments, toggledTools } from './mcp-client-helpers';

const tools = ['add', 'echo', 'fail'].map((name) => ({ name, input_schema: {} }));

describe('toggledTools', () => {
  it('turns ["*"] into the explicit list of the others when one tool is switched off', () => {
    const client = { tools, tools_to_execute: ['*'], tools_to_auto_execute: ['*'] };
    expect(toggledTools(client, 'echo', false)).toEqual({
      tools_to_execute: ['add', 'fail'],
      tools_to_auto_execute: ['add', 'fail'],
    });
  });
  it('goes back to ["*"] when every listed tool is on again, keeping the auto list', () => {
    const client = { tools, tools_to_execute: ['add', 'fail'], tools_to_auto_execute: ['add'] };
    expect(toggledTools(client, 'echo', true)).toEqual({ tools_to_execute: ['*'], tools_to_auto_execute: ['add'] });
  });
  it('drops a switched-off tool from the auto list', () => {
    const client = { tools, tools_to_execute: ['add', 'echo'], tools_to_auto_execute: ['echo'] };
    expect(toggledTools(client, 'echo', false)).toEqual({ tools_to_execute: ['add'], tools_to_auto_execute: [] });
  });
});

describe('headersOf', () => {
  it('drops blank rows and is undefined when nothing is left', () => {
    expect(
      headersOf([
        { name: ' Authorization ', value: 'Bearer x' },
        { name: '', value: 'y' },
      ]),
    ).toEqual({
      Authorization: 'Bearer x',
    });
    expect(headersOf([{ name: ' ', value: '' }])).toBeUndefined();
  });
});

describe('argumentProblems', () => {
  const schema = {
    type: 'object',
    properties: {
      a: { type: 'number', minimum: 0 },
      text: { type: 'string', maxLength: 3, pattern: '^[a-z]+$' },
      mode: { enum: ['fast', 'slow'] },
      list: { type: 'array', items: { type: 'integer' }, maxItems: 2 },
    },
    required: ['a'],
    additionalProperties: false,
  };
  it('accepts what fits', () => {
    expect(argumentProblems(schema, { a: 1, text: 'ab', mode: 'fast', list: [1, 2] })).toEqual([]);
  });
  it('names each problem by its path', () => {
    expect(argumentProblems(schema, { text: 'ABCD', mode: 'other', list: [1.5, 2, 3], extra: 1 })).toEqual([
      'arguments.a is required',
      'arguments.text must have at most 3 characters',
      'arguments.text must match ^[a-z]+$',
      'arguments.mode must be one of "fast", "slow"',
      'arguments.list must have at most 2 items',
      'arguments.list[0] must be integer, not number',
      'arguments.extra is not a known argument',
    ]);
    expect(argumentProblems(schema, { a: '1' })).toEqual(['arguments.a must be number, not string']);
    expect(argumentProblems(schema, { a: -1 })).toEqual(['arguments.a must be ≥ 0']);
  });
  it('needs one anyOf branch to fit', () => {
    const either = { anyOf: [{ type: 'string' }, { type: 'number' }] };
    expect(argumentProblems(either, 'x')).toEqual([]);
    expect(argumentProblems(either, true)).toEqual(['arguments fits none of the allowed shapes']);
  });
});

describe('parseArguments', () => {
  const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
  it('parses an object that fits', () => {
    expect(parseArguments('{"a": 2}', schema)).toEqual({ ok: true, value: { a: 2 } });
  });
  it('refuses text that is not JSON, or not an object', () => {
    const broken = parseArguments('{"a": ', schema);
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.problems[0]).toMatch(/^Not JSON: /);
    expect(parseArguments('[1]', schema)).toEqual({ ok: false, problems: ['The arguments must be a JSON object'] });
  });
  it('refuses what the schema refuses', () => {
    expect(parseArguments('{}', schema)).toEqual({ ok: false, problems: ['arguments.a is required'] });
  });
});

describe('argumentsTemplate', () => {
  it('has each property with a blank of its type', () => {
    const schema = { properties: { a: { type: 'number' }, text: { type: 'string' }, on: { type: 'boolean' } } };
    expect(JSON.parse(argumentsTemplate(schema))).toEqual({ a: 0, text: '', on: false });
  });
});
