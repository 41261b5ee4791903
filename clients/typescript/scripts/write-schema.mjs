// Writes schema/gateway-config.v1.schema.json from the schema in code (src/cli/declarative/file-schema.ts, built into
// dist/). `--check` exits 1 when the committed file differs (CI, through test/cli/schema.spec.ts and this script).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileJsonSchema } from '../dist/cli/declarative/file-schema.js';

const path = join(import.meta.dirname, '..', 'schema', 'gateway-config.v1.schema.json');
const text = `${JSON.stringify(fileJsonSchema(), null, 2)}\n`;
if (process.argv.includes('--check')) {
  const committed = await readFile(path, 'utf8').catch(() => '');
  if (committed !== text) {
    console.error(`${path} is stale: run node clients/typescript/scripts/write-schema.mjs`);
    process.exit(1);
  }
  console.log(`${path} is up to date`);
} else {
  await writeFile(path, text);
  console.log(`wrote ${path}`);
}
