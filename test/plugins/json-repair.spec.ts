import { describe, expect, it } from 'vitest';
import { repairJson } from '../../src/modules/plugins/builtins/json-repair.js';

describe('repairJson (the jsonparser plugin)', () => {
  it.each([
    ['{"a": "Par', '{"a": "Par"}'],
    ['{"a": [1, 2', '{"a": [1, 2]}'],
    ['{"a": 1,', '{"a": 1}'],
    ['{"a": {"b": ', '{"a": {"b":null}}'],
    ['{"a": 1, "b"', '{"a": 1, "b":null}'],
    ['[{"x": "y\\"', '[{"x": "y\\""}]'],
    ['{"a": "}"', '{"a": "}"}'],
    ['{"done": true}', '{"done": true}'],
  ])('%s → %s', (input, repaired) => {
    expect(repairJson(input)).toBe(repaired);
    expect(() => JSON.parse(repaired)).not.toThrow();
  });

  it('gives up on a cut inside a literal', () => {
    expect(repairJson('{"a": tru')).toBeUndefined();
  });
});
