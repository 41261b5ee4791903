// What each import adds to the V8 heap (issue 50 §5): a fresh node with `npm start`'s flags and --expose-gc imports the
// given specifiers in order and prints, after each, the growth of `heapUsed` after full GCs (what stays for the life
// of the process: module sources, compiled code, module-level data). A specifier starting with `./` is a file
// (e.g. `./dist/src/app.factory.js`); a package imported after another one counts only what that one did not load.
//
// Usage: npm run build && node bench/import-heap.mjs <specifier>... (e.g. typeorm bullmq ./dist/src/app.factory.js)
import { execFileSync } from 'node:child_process';
import { START_NODE_FLAGS } from './lib/gateway.mjs';

const specs = process.argv.slice(2);
if (specs.length === 0) throw new Error('usage: node bench/import-heap.mjs <specifier>...');
const code = `
import { pathToFileURL } from 'node:url';
const used = () => { for (let i = 0; i < 4; i++) globalThis.gc(); return process.memoryUsage().heapUsed; };
const mb = (n) => (n / 2 ** 20).toFixed(2).padStart(7);
let before = used();
console.log(mb(before), '(node itself)');
for (const spec of ${JSON.stringify(specs)}) {
  await import(spec.startsWith('./') ? pathToFileURL(spec).href : spec);
  await new Promise((r) => setTimeout(r, 50));
  const now = used();
  console.log(mb(now - before), spec);
  before = now;
}
console.log(mb(before), '(heap used in all)');
`;
process.stdout.write(
  execFileSync(process.execPath, [...START_NODE_FLAGS, '--expose-gc', '--input-type=module', '-e', code], {
    encoding: 'utf8',
  }),
);
