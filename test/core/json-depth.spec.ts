import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from '../../src/core/http/json-body-parser.js';

const nested = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);

/** The pre-parse depth scan: brackets count only outside strings, escapes included. */
describe('exceedsJsonDepth', () => {
  it('counts arrays and objects alike, up to and beyond the limit', () => {
    expect(exceedsJsonDepth(nested(64), 64)).toBe(false);
    expect(exceedsJsonDepth(nested(65), 64)).toBe(true);
    expect(exceedsJsonDepth('{"a":'.repeat(65) + '1' + '}'.repeat(65), 64)).toBe(true);
    expect(exceedsJsonDepth(JSON.stringify(Array.from({ length: 500 }, () => [[1], { a: [2] }])), 64)).toBe(false);
  });

  it('ignores brackets inside strings, with escaped quotes and escaped backslashes', () => {
    expect(exceedsJsonDepth(JSON.stringify({ s: '['.repeat(500) }), 64)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify({ s: `"${'['.repeat(500)}` }), 64)).toBe(false);
    // `"\\"` ends the string: the brackets after it are structure.
    expect(exceedsJsonDepth(`["\\\\",${nested(70)}]`, 64)).toBe(true);
    expect(exceedsJsonDepth(`["\\\\\\"${'['.repeat(70)}"]`, 64)).toBe(false);
  });

  it('leaves malformed text to JSON.parse', () => {
    expect(exceedsJsonDepth(`"${'['.repeat(100)}`, 64)).toBe(false);
    expect(exceedsJsonDepth(']'.repeat(100), 64)).toBe(false);
  });
});
