import { describe, expect, it } from 'vitest';
import { csvLine } from '../../clients/typescript/src/cli/csv.js';
import { advance, decodeCursor, encodeCursor } from '../../clients/typescript/src/cli/log-cursor.js';
import { FILE_SHAPE } from '../../clients/typescript/src/cli/declarative/file-schema.js';
import { validate } from '../../clients/typescript/src/cli/declarative/schema.js';
import { matches, secretEnvName, secretsToFile } from '../../clients/typescript/src/cli/declarative/values.js';
import { parseRetryAfter } from '../../clients/typescript/src/errors.js';

describe('client and CLI helpers', () => {
  it('advances the export cursor past rows sharing a timestamp', () => {
    const start = { seen: 0, end: '2026-12-01T00:00:00.000Z', written: 0 };
    const a = advance(start, [{ timestamp: 't1' }, { timestamp: 't2' }, { timestamp: 't2' }]);
    expect(a).toEqual({ ...start, after: 't2', seen: 2, written: 3 });
    const b = advance(a, [{ timestamp: 't2' }, { timestamp: 't2' }]);
    expect(b).toMatchObject({ after: 't2', seen: 4, written: 5 });
    expect(advance(b, [{ timestamp: 't3' }])).toMatchObject({ after: 't3', seen: 1, written: 6 });
    expect(decodeCursor(encodeCursor(b))).toEqual(b);
    expect(() => decodeCursor(Buffer.from('{"x":1}').toString('base64url'))).toThrow('not a cursor');
  });

  it('writes RFC 4180 CSV', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', null, { k: 1 }, 'two\nlines'])).toBe(
      'a,"b,c","say ""hi""",,"{""k"":1}","two\nlines"\r\n',
    );
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('compares only what the file gives, at every depth; plain secrets match plain secrets', () => {
    expect(matches({ max_limit: 1 }, { max_limit: 1, calendar_aligned: false })).toBe(true);
    expect(matches([{ a: 1 }], [{ a: 1 }, { a: 2 }])).toBe(false);
    expect(matches({ fromEnv: 'A' }, { fromEnv: 'GATEWAY_SECRET_X' })).toBe(true);
    expect(matches({ fromEnv: 'A' }, 'env.A')).toBe(false);
    expect(matches(null, undefined)).toBe(true);
    expect(matches('x', null)).toBe(false);
  });

  it('turns stored secrets into references, never values', () => {
    const view = { value: '<REDACTED>', ref: '', type: 'plain_text' };
    expect(secretsToFile({ a: view, b: { value: 'x', ref: 'env.B', type: 'env' } }, ['openai', 'main'])).toEqual({
      a: { fromEnv: 'GATEWAY_SECRET_OPENAI_MAIN_A' },
      b: 'env.B',
    });
    expect(secretEnvName(['mcp', 'docs server', 'header', 'X-Api-Key'])).toBe(
      'GATEWAY_SECRET_MCP_DOCS_SERVER_HEADER_X_API_KEY',
    );
  });

  it('reports every schema problem of a file with its path', () => {
    const problems = validate(FILE_SHAPE, {
      version: 1,
      teams: [{ name: 'a', colour: 'blue' }, { budgets: [{ max_limit: 'ten', reset_duration: '1d' }] }],
      providers: [{ provider: 'openai', keys: [{ name: 'k', value: 'sk-literal' }] }],
    });
    expect(problems).toEqual([
      { path: ['teams', 0, 'colour'], message: "unknown field 'colour'" },
      { path: ['teams', 1], message: "missing required field 'name'" },
      { path: ['teams', 1, 'budgets', 0, 'max_limit'], message: 'expected a number, got string' },
      {
        path: ['providers', 0, 'keys', 0, 'value'],
        message:
          'a secret must be a reference: env.NAME, vault.path, { fromEnv: NAME } or { fromFile: path }, never a value',
      },
    ]);
  });
});
