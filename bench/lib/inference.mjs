// The inference bench's pieces: the provider simulator in its own process, the chat request bodies, the response
// checks, stream pacing, and a gateway wired to the simulator (provider `openai`, one key, a virtual key).
/* global AbortSignal */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { resolve } from 'node:path';
import { clearTimeout } from 'node:timers';
import { onCleanup } from './cleanup.mjs';
import { createVirtualKey, freePort, manage, stopChild } from './gateway.mjs';
import { guardChild } from './reaper.mjs';

export const SIM_MAIN_JS = resolve('dist/test/simulator/main.js');
/** The provider key the simulator is called with, directly, by the bare proxy's callers and by the gateway. */
export const PROVIDER_KEY = 'sk-bench';
export const MODEL = 'gpt-4o-mini';

/**
 * Starts the built provider simulator (`dist/test/simulator/main.js`, keeping no captured requests unless
 * `maxCaptured` says how many, for a bench that counts calls through `GET /_sim/requests`) on a free port as a child
 * process, so it never shares the load generator's event loop. Resolves `{ url, openaiBase, pid, child, stop() }`;
 * stopped on cleanup, and by the reaper if the bench is killed.
 */
export async function spawnSimulator({ startTimeoutMs = 30_000, maxCaptured = 0 } = {}) {
  if (!existsSync(SIM_MAIN_JS)) throw new Error(`${SIM_MAIN_JS} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const child = spawn(process.execPath, [SIM_MAIN_JS, '--port', String(port), '--max-captured', String(maxCaptured)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  guardChild(child);
  const stop = onCleanup(() => stopChild(child, 5000));
  await new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error('provider simulator did not start')), startTimeoutMs);
    child.once('exit', (code) => fail(new Error(`provider simulator exited (${code}) before it listened`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) {
        clearTimeout(timer);
        ok();
      }
    });
  });
  child.stdout.resume();
  const url = `http://127.0.0.1:${port}`;
  return { url, openaiBase: `${url}/openai/v1`, pid: child.pid, child, stop };
}

/**
 * Has the simulator send every stream's events `gapMs` apart (a `repeat` scenario matching every request), so a relay
 * that buffered a stream would show in its time to first byte. Resolves a function that removes it again.
 */
export async function paceStreams(sim, gapMs) {
  const control = (method, body) =>
    fetch(`${sim.url}/_sim/scenarios`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body && JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`simulator ${method} /_sim/scenarios: ${r.status} ${await r.text()}`);
    });
  await control('POST', { match: {}, responses: [{ fault: 'chunk_delay', chunk_delay_ms: gapMs }], repeat: true });
  return () => control('DELETE');
}

/** A chat completion request; the simulator answers `echo: <text>`, one token per word. */
export function chatBody({ model = MODEL, stream = false } = {}) {
  return JSON.stringify({
    model,
    messages: [
      { role: 'system', content: 'You are a benchmark.' },
      { role: 'user', content: 'Say hello to the inference benchmark in a dozen words or so, please.' },
    ],
    max_tokens: 64,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/** Load check, unary: a 200 carrying a `chat.completion` with an answer and its usage. */
export function isChatCompletion(status, text) {
  if (status !== 200) return false;
  try {
    const body = JSON.parse(text);
    return (
      body.object === 'chat.completion' &&
      typeof body.choices?.[0]?.message?.content === 'string' &&
      Number.isInteger(body.usage?.prompt_tokens) &&
      Number.isInteger(body.usage?.completion_tokens)
    );
  } catch {
    return false;
  }
}

/** Load check, stream: a 200 read to its end, with the usage chunk (`include_usage`) and `data: [DONE]` last. */
export function isCompleteStream(status, text) {
  return (
    status === 200 && /data: \[DONE\]\r?\n\r?\n$/.test(text) && /"usage":\s*\{/.test(text) && !text.includes('"error":')
  );
}

/**
 * Configures `gw` for the bench: provider `openai` on the simulator, its key `bench`, and a virtual key. Returns
 * `{ vk, url, headers, model }`: the gateway's `/v1/chat/completions`, the virtual key's header and `openai/<MODEL>`.
 */
export async function wireGateway(gw, sim) {
  await manage(gw, 'POST', '/api/providers', { provider: 'openai', base_url: sim.openaiBase });
  await manage(gw, 'POST', '/api/providers/openai/keys', { name: 'bench', value: PROVIDER_KEY });
  const vk = await createVirtualKey(gw, 'bench-inference');
  return {
    vk,
    url: `${gw.base}/v1/chat/completions`,
    headers: { authorization: `Bearer ${vk.value}` },
    model: `openai/${MODEL}`,
  };
}

/**
 * One POST on a fresh connection; resolves `{ status, headers, text, ttfb, total }` (ms from just before the request
 * was written to the first body bytes and to the end of the body).
 */
export function probe({ url, headers }, body, { timeoutMs = 10_000 } = {}) {
  return new Promise((ok, fail) => {
    const started = performance.now();
    let ttfb = NaN;
    let text = '';
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, timeout: timeoutMs },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          if (Number.isNaN(ttfb)) ttfb = performance.now() - started;
          text += chunk;
        });
        res.on('end', () =>
          ok({ status: res.statusCode, headers: res.headers, text, ttfb, total: performance.now() - started }),
        );
        res.on('error', fail);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    req.on('error', fail);
    req.end(body);
  });
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) `pid` has used so far, in ms (kernel view, /proc/<pid>/stat; clock-tick resolution). */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, inside parentheses): state is the 3rd field, utime the 14th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * Gateways side by side under one load: a 3 s warm-up of each, then `rounds` rounds of `seconds` each, the order
 * reversed every other round so machine noise hits all alike. Each round prints req/s and the CPU the serving gateway
 * spent per request (its own process); any error or refused answer aborts. Resolves, per variant in order, to its mean
 * req/s and CPU ms per request.
 */
export async function sideBySide(variants, { rounds, seconds, load }) {
  for (const v of variants) await load(v, 3000);
  const totals = variants.map(() => ({ cpu: 0, requests: 0, rps: [] }));
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, i) => i);
    for (const i of round % 2 ? order.reverse() : order) {
      const v = variants[i];
      const before = cpuMs(v.gw.pid);
      const r = await load(v, seconds * 1000);
      const cpu = cpuMs(v.gw.pid) - before;
      if (r.errors || r.bad) throw new Error(`${v.name}: ${r.errors} errors, ${r.bad} refused (${r.firstBad})`);
      totals[i].cpu += cpu;
      totals[i].requests += r.requests;
      totals[i].rps.push(r.rps);
      console.log(
        `  round ${round + 1} ${v.name}: ${r.rps.toFixed(0)} req/s, CPU ${(cpu / r.requests).toFixed(3)} ms/req`,
      );
    }
  }
  return totals.map((t) => ({ rps: t.rps.reduce((a, b) => a + b, 0) / t.rps.length, cpu: t.cpu / t.requests }));
}
