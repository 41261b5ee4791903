import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorTypeForStatus } from '../../src/core/errors/error-catalogue.js';

/** The typed catalogue and the documented one are the same list: a code cannot be thrown without being documented. */
describe('error catalogue', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = new Map<number, string>();
  for (const line of doc.split('\n')) {
    const match = /^\| (\d{3}) \| [^|]+ \| (.+) \|$/.exec(line);
    if (match) rows.set(Number(match[1]), match[2]!);
  }

  it('documents every code on the row of its status', () => {
    const missing: string[] = [];
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      const row = rows.get(status) ?? '';
      const resource = /^(.+)_not_found$/.exec(code)?.[1];
      const listed = row.includes(`\`${code}\``) || (resource !== undefined && row.includes(`\`${resource}\``));
      if (!listed) missing.push(`${status} ${code}`);
    }
    expect(missing).toEqual([]);
  });

  it('gives every status of the catalogue a type', () => {
    for (const status of new Set(Object.values(ERROR_CODES))) {
      expect(errorTypeForStatus(status), String(status)).toMatch(/^[a-z_]+$/);
      expect(rows.has(status), `docs/errors.md has no row for ${status}`).toBe(true);
    }
  });
});
