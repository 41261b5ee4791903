// gatewayctl --help start-up time (issue 48 figure: <= 300 ms): `node clients/typescript/bin/gatewayctl.js --help`
// and a subcommand's help, each run N times alternating with `node -e 0` (the floor every node process pays on this
// machine): median and p90 wall time, and median CPU time (user + system of the waited-for child, from this
// process's cutime/cstime), which a loaded machine disturbs less than wall time. Needs `npm run build`.
// Usage: node bench/cli-help.mjs [runs=30]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { GATEWAYCTL } from './lib/cli.mjs';
import { machineLine } from './lib/report.mjs';

const RUNS = Number(process.argv[2] ?? 30);
const commands = {
  'node -e 0': ['-e', '0'],
  'gatewayctl --help': [GATEWAYCTL, '--help'],
  'gatewayctl apply --help': [GATEWAYCTL, 'apply', '--help'],
};
console.log(machineLine());
const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
const cpu = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
/** CPU ms of the waited-for children so far (cutime + cstime, clock ticks of 10 ms). */
const childrenCpuMs = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
};
for (let i = 0; i < RUNS; i += 1) {
  for (const [name, args] of Object.entries(commands)) {
    const c = childrenCpuMs();
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
    times[name].push(performance.now() - t);
    cpu[name].push(childrenCpuMs() - c);
  }
}
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
console.log('| command | wall median ms | wall p90 ms | CPU median ms |\n| --- | ---: | ---: | ---: |');
for (const [name, xs] of Object.entries(times)) {
  console.log(
    `| ${name} | ${pct(xs, 0.5).toFixed(0)} | ${pct(xs, 0.9).toFixed(0)} | ${pct(cpu[name], 0.5).toFixed(0)} |`,
  );
}
console.log(machineLine('end'));
