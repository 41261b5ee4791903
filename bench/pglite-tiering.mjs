// What V8's optimizing tier costs and saves PGlite, the embedded database: the same work in a fresh process with the
// default WASM tiering (Liftoff first, hot functions recompiled by the optimizing compiler) and with `--liftoff-only`,
// alternating. Each process opens the gateway's embedded engine in memory (createPGlite: the extensions and settings
// the gateway uses), inserts rows one statement at a time (a warm-up, then the measured rows) and reads them back once;
// it reports its CPU per row and its VmHWM (the kernel's peak RSS, which sees the optimizing compile's transient that a
// sample every second misses). Needs `npm run build`.
// Usage: node bench/pglite-tiering.mjs [rows=5000] [rounds=3]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { machineLine } from './lib/report.mjs';

const ROWS = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 3);
const ENGINE = new URL('../dist/src/core/persistence/pglite-engine.js', import.meta.url).href;

const child = `
const { readFileSync } = await import('node:fs');
const { createPGlite } = await import(${JSON.stringify(ENGINE)});
const rows = Number(process.argv[1]);
const db = await createPGlite({});
await db.exec('CREATE TABLE t (id serial PRIMARY KEY, model text, tokens int, body jsonb, at timestamptz DEFAULT now())');
const insert = (i) => db.query('INSERT INTO t (model, tokens, body) VALUES ($1, $2, $3)',
  ['model-' + (i % 60), i, JSON.stringify({ i, messages: [{ role: 'user', content: 'hello ' + i }] })]);
for (let i = 0; i < 2000; i++) await insert(i);
const cpu = process.cpuUsage();
for (let i = 0; i < rows; i++) await insert(i);
await db.query("SELECT model, count(*), sum(tokens) FROM t WHERE body->>'i' LIKE '1%' GROUP BY model");
const used = process.cpuUsage(cpu);
await db.close();
const hwm = Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
console.log(JSON.stringify({ cpu_us_per_row: (used.user + used.system) / rows, vmhwm_mb: hwm }));
`;

function run(flags) {
  const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', child, String(ROWS)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1));
}

console.log(machineLine());
const sides = { default: [], '--liftoff-only': [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, flags] of [
    ['default', []],
    ['--liftoff-only', ['--liftoff-only']],
  ]) {
    const r = run(flags);
    sides[name].push(r);
    console.log(
      `round ${round + 1} ${name}: ${r.cpu_us_per_row.toFixed(1)} µs CPU per row, VmHWM ${r.vmhwm_mb.toFixed(0)} MB`,
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const d = sides.default;
const l = sides['--liftoff-only'];
const cpuD = median(d.map((r) => r.cpu_us_per_row));
const cpuL = median(l.map((r) => r.cpu_us_per_row));
console.log(
  `median: default ${cpuD.toFixed(1)} µs/row, VmHWM ${median(d.map((r) => r.vmhwm_mb)).toFixed(0)} MB; ` +
    `--liftoff-only ${cpuL.toFixed(1)} µs/row (${(cpuL / cpuD).toFixed(2)}×), VmHWM ${median(l.map((r) => r.vmhwm_mb)).toFixed(0)} MB`,
);
