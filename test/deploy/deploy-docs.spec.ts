import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_OVERRIDES } from '../../src/core/config/config.loader.js';
import { CONTAINER_ENV } from '../../src/core/config/required-variables.js';

/** The rows of docs/deploy.md's "Environment variables" table: variable, default, config key / meaning. */
function environmentTable(): Map<string, { fallback: string; meaning: string }> {
  const page = readFileSync('docs/deploy.md', 'utf8');
  const section = page.slice(page.indexOf('## Environment variables'));
  const rows = new Map<string, { fallback: string; meaning: string }>();
  for (const line of section.slice(0, section.indexOf('\n## ', 1)).split('\n')) {
    const cells = /^\| `([A-Z_]+)` \| (.+) \| (.+) \|$/.exec(line);
    if (cells) rows.set(cells[1]!, { fallback: cells[2]!, meaning: cells[3]! });
  }
  return rows;
}

describe('docs/deploy.md', () => {
  it('lists every environment variable the gateway reads, each with its default and config key', () => {
    const rows = environmentTable();
    const read = [...ENV_OVERRIDES.map((o) => o.env), 'GATEWAY_CONFIG', CONTAINER_ENV];
    expect([...rows.keys()].filter((name) => name !== 'NODE_EXTRA_CA_CERTS').sort()).toEqual(read.sort());
    for (const { env, key } of ENV_OVERRIDES) {
      expect(rows.get(env)!.meaning, env).toMatch(new RegExp(`^\`${key.replace(/\./g, '\\.')}\``));
      expect(rows.get(env)!.fallback, env).not.toBe('');
    }
  });

  it('documents npm run test:image, which package.json defines', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:image']).toMatch(/vitest run -c vitest\.image\.config\.ts/);
    expect(readFileSync('docs/deploy.md', 'utf8')).toContain('`npm run test:image`');
  });
});
