import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

type Service = { build?: unknown; image?: string; environment?: Record<string, string>; pull_policy?: string };

describe('docker/compose.yaml', () => {
  const compose = parseYaml(readFileSync('docker/compose.yaml', 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
  };
  const { gateway, worker } = compose.services as { gateway: Service; worker: Service };

  it('refuses to start without a setup token or an encryption key, and passes the admin auth variables', () => {
    expect(gateway.environment?.GATEWAY_SETUP_TOKEN).toMatch(/^\$\{GATEWAY_SETUP_TOKEN:\?.+\}$/);
    expect(gateway.environment?.GATEWAY_ENCRYPTION_KEY).toMatch(/^\$\{GATEWAY_ENCRYPTION_KEY:\?.+\}$/);
    for (const name of ['GATEWAY_AUTH_ENABLED', 'GATEWAY_ADMIN_USERNAME', 'GATEWAY_ADMIN_PASSWORD']) {
      expect(gateway.environment?.[name]).toMatch(new RegExp(`^\\$\\{${name}:-`));
    }
  });

  it('gives the worker the same database, queue, key, edition and log level', () => {
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'GATEWAY_ENCRYPTION_KEY', 'GATEWAY_EDITION', 'LOG_LEVEL']) {
      expect(worker.environment?.[name]).toBeDefined();
      expect(worker.environment?.[name]).toBe(gateway.environment?.[name]);
    }
  });

  it('builds the image once: one service builds it, the worker runs it', () => {
    const building = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
    expect(building.map(([name]) => name)).toEqual(['gateway']);
    expect(gateway.image).toBeTruthy();
    expect(worker.image).toBe(gateway.image);
    expect(worker.pull_policy).toBe('never');
  });
});

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
