// Kills a bench's child processes even when the bench itself is killed with SIGKILL (no handler runs then).
// The bench spawns this with a pipe on stdin and writes `+<pid>` / `-<pid>` lines as children start and exit (and
// `d<dir>` / `k<dir>` for temp dirs); when the pipe closes (the bench ended, however) every pid still listed gets
// SIGTERM, then SIGKILL 30 s later, and the dirs still listed are removed. (A scratch database or Redis prefix of a
// SIGKILLed scale-out run stays: `gw_bench_*`, `gwbench*`.)
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let reaper;

function tell(line) {
  if (!reaper) {
    reaper = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: ['pipe', 'ignore', 'inherit'] });
    reaper.unref();
    reaper.stdin.unref?.();
    reaper.stdin.on('error', () => {});
  }
  if (reaper.stdin.writable) reaper.stdin.write(`${line}\n`);
}

/** Hands `child` to the reaper (started on first use); it is crossed off again when it exits. */
export function guardChild(child) {
  tell(`+${child.pid}`);
  child.once('exit', () => tell(`-${child.pid}`));
}

/** Has the reaper remove `dir` if the bench dies before it does; returns a function crossing it off. */
export function guardDir(dir) {
  tell(`d${dir}`);
  return () => tell(`k${dir}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pids = new Set();
  const dirs = new Set();
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) {
      const rest = line.slice(1);
      if (line[0] === '+') pids.add(Number(rest));
      else if (line[0] === '-') pids.delete(Number(rest));
      else if (line[0] === 'd') dirs.add(rest);
      else if (line[0] === 'k') dirs.delete(rest);
    }
  });
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  process.stdin.on('close', async () => {
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 30_000;
    while ([...pids].some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}
