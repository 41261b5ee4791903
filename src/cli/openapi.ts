import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildOpenApiDocument } from '../core/openapi/openapi.js';
import { createOfflineApp } from './cli-app.js';

/**
 * `npm run openapi` writes the sorted document to openapi/openapi.json; `--check` exits 1 when the committed file
 * differs from what the code generates (CI's drift check).
 */
const OUTPUT = 'openapi/openapi.json';
const check = process.argv.includes('--check');
const { app } = await createOfflineApp();
const text = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
await app.close();
if (check) {
  let committed = '';
  try {
    committed = readFileSync(OUTPUT, 'utf8');
  } catch {
    // missing file counts as drift
  }
  if (committed !== text) {
    process.stderr.write(`${OUTPUT} is out of date: run \`npm run openapi\` and commit the result\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`${OUTPUT} is up to date\n`);
  }
} else {
  mkdirSync(dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, text);
  process.stdout.write(`wrote ${OUTPUT}\n`);
}
