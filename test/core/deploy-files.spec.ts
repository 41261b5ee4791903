import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('documentation tables', () => {
  it('every row of every table in docs/ and the README has as many cells as its header', () => {
    const files = [
      'README.md',
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => join('docs', f)),
    ];
    const broken: string[] = [];
    for (const file of files) {
      let header: number | undefined;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (!line.startsWith('|')) {
            header = undefined;
            return;
          }
          const cells = line.split(/(?<!\\)\|/).length - 2;
          header ??= cells;
          // An escaped pipe inside a code span shows as `\|` wherever backslash escapes do not apply in code spans
          // (CommonMark); only GitHub's table rule hides it.
          const pipeInCode = [...line.matchAll(/`([^`]*)`/g)].some((code) => code[1]!.includes('\\|'));
          if (cells !== header || pipeInCode) broken.push(`${file}:${index + 1}`);
        });
    }
    expect(broken).toEqual([]);
  });
});
