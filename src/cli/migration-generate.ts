import 'reflect-metadata';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createOfflineApp } from './cli-app.js';

/**
 * Compares the entities with a freshly migrated database. `npm run migration:generate -- --name AddThing` writes the
 * difference as a new file in migrations/ and registers it in migrations/index.ts; `--check` (CI) exits 1 when any
 * difference exists. Runs on the embedded engine, or on DATABASE_URL when set.
 */
const { values } = parseArgs({ options: { name: { type: 'string' }, check: { type: 'boolean' } } });
// The one setting read from the environment here: which database to compare against.
const { app } = await createOfflineApp({ database_url: process.env.DATABASE_URL || undefined });
const dataSource = app.get<DataSource>(getDataSourceToken());
const sql = await dataSource.driver.createSchemaBuilder().log();
await app.close();

const up = sql.upQueries.map((q) => q.query);
const down = sql.downQueries.map((q) => q.query).reverse();
if (values.check) {
  if (up.length) {
    process.stderr.write(`pending schema changes not covered by migrations:\n${up.map((q) => `  ${q}`).join('\n')}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write('no pending migrations\n');
  }
} else if (!up.length) {
  process.stdout.write('no changes: nothing to generate\n');
} else {
  writeMigration(up, down, values.name ?? 'Migration');
}

function existingTimestamps(): number[] {
  return readdirSync('migrations').flatMap((file) => {
    const match = /^(\d+)-.*\.ts$/.exec(file);
    return match ? [Number(match[1])] : [];
  });
}

/** Writes the difference as migrations/<timestamp>-<Name>.ts and registers it in migrations/index.ts. */
function writeMigration(up: string[], down: string[], rawName: string): void {
  const name = rawName.replace(/[^A-Za-z0-9]/g, '');
  // TypeORM runs migrations in timestamp order: a new one must come after every existing one (one was dated ahead).
  const timestamp = Math.max(Date.now(), ...existingTimestamps().map((t) => t + 1));
  const className = `${name}${timestamp}`;
  const file = `migrations/${timestamp}-${name}.ts`;
  const quote = (q: string) => '`' + q.replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
  writeFileSync(
    file,
    `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${up.map((q) => `    await queryRunner.query(${quote(q)});`).join('\n')}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${down.map((q) => `    await queryRunner.query(${quote(q)});`).join('\n')}
  }
}
`,
  );
  const index = readFileSync('migrations/index.ts', 'utf8');
  const updated = index
    .replace(/^(\/\/.*\n)/, `$1import { ${className} } from './${timestamp}-${name}.js';\n`)
    .replace(/\[([^\]]*)\];/, (_m, list: string) => {
      const items = list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return `[\n  ${[...items, className].join(',\n  ')},\n];`;
    });
  writeFileSync('migrations/index.ts', updated);
  process.stdout.write(`wrote ${file}\n`);
}
