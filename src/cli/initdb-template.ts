import { writeFileSync } from 'node:fs';
import { createPGlite, INITDB_TEMPLATE } from '../core/persistence/pglite-engine.js';

/**
 * `npm run build` writes a fresh embedded data dir (initdb, nothing else) as a tarball beside the compiled persistence
 * code, so that a gateway's first start unpacks it instead of running initdb (docs/decisions.md, "The embedded
 * database's first start").
 */
const db = await createPGlite({});
const dump = await db.dumpDataDir('gzip');
await db.close();
writeFileSync(INITDB_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
process.stdout.write(`${INITDB_TEMPLATE}: ${dump.size} bytes\n`);
