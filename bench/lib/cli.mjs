// Runs gatewayctl (the built client package's bin) as a process and measures it: wall time, CPU time and peak RSS
// (read from /proc every 50 ms while it runs, and its rusage at the end).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';

export const GATEWAYCTL = resolve('clients/typescript/bin/gatewayctl.js');

function rssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU ms (user + system) a process has used so far, from /proc. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/**
 * `gatewayctl …args` with `env` (plus PATH and HOME): `{ code, stdout, stderr, wallMs, cpuMs, peakRssMb, rssSamples }`.
 * `onStderr` sees the progress lines as they come.
 */
export function runGatewayctl(args, env, { onStderr, stdout = 'pipe' } = {}) {
  return new Promise((ok, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [GATEWAYCTL, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', stdout, 'pipe'],
    });
    let out = '';
    let err = '';
    let peak = 0;
    let lastCpu;
    const samples = [];
    child.stdout?.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => {
      err += c;
      onStderr?.(String(c));
    });
    const timer = setInterval(() => {
      const rss = rssMb(child.pid);
      if (rss) samples.push(rss);
      peak = Math.max(peak, rss);
      lastCpu = cpuMs(child.pid) ?? lastCpu;
    }, 50);
    child.on('error', fail);
    child.on('close', (code) => {
      clearInterval(timer);
      ok({
        code,
        stdout: out,
        stderr: err,
        wallMs: performance.now() - started,
        cpuMs: lastCpu,
        peakRssMb: peak,
        rssSamples: samples,
      });
    });
  });
}
