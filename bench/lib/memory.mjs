// Memory of a child process: the kernel's view (/proc/<pid>/status) and the process's own view (the gateway's
// Prometheus default metrics, `gateway_` prefix: V8 heap, external memory, heap spaces).
//
// Where WebAssembly memory shows: V8 counts a WebAssembly.Memory in `external` (process.memoryUsage().external,
// the metric gateway_nodejs_external_memory_bytes) and not in `arrayBuffers`, so PGlite's WASM heap (when PGlite
// runs on the main isolate) is inside `external`, next to Buffers.
/* global AbortSignal */
import { readFileSync } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';

const MB = 1024 * 1024;

/** VmRSS, VmHWM (peak RSS since start), RssAnon, RssFile, RssShmem of `pid`, in bytes (kernel view). */
export function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => {
    const m = text.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) * 1024 : NaN;
  };
  const threads = text.match(/^Threads:\s+(\d+)/m);
  return {
    rss: kb('VmRSS'),
    hwm: kb('VmHWM'),
    anon: kb('RssAnon'),
    file: kb('RssFile'),
    shmem: kb('RssShmem'),
    threads: threads ? Number(threads[1]) : NaN,
  };
}

/** The memory gauges of the gateway's /metrics (bytes), or undefined when the route does not answer. */
export async function gatewayMemoryMetrics(gw) {
  const res = await fetch(`${gw.base}/metrics`, {
    headers: { 'x-gateway-setup-token': gw.setupToken },
    signal: AbortSignal.timeout(5000),
  }).catch(() => undefined);
  if (!res?.ok) return undefined;
  const text = await res.text();
  const value = (name, labels = '') => {
    const m = text.match(new RegExp(`^${name}${labels.replace(/[{}]/g, '\\$&')}\\s+([0-9.eE+-]+)`, 'm'));
    return m ? Number(m[1]) : NaN;
  };
  return {
    rss: value('gateway_process_resident_memory_bytes'),
    heapTotal: value('gateway_nodejs_heap_size_total_bytes'),
    heapUsed: value('gateway_nodejs_heap_size_used_bytes'),
    external: value('gateway_nodejs_external_memory_bytes'),
    code: value('gateway_nodejs_heap_space_size_used_bytes', '{space="code"}'),
    // V8's young generation (its semi-spaces grow with the allocation rate, up to --max-semi-space-size each).
    newSpace: value('gateway_nodejs_heap_space_size_total_bytes', '{space="new"}'),
  };
}

/** Samples procStatus(pid) every `intervalMs` until stop(); stop() resolves with `{ peak, peakAnon, samples }`. */
export function sampleRss(pid, intervalMs = 200) {
  let peak = 0;
  let peakAnon = 0;
  let samples = 0;
  const tick = () => {
    try {
      const s = procStatus(pid);
      peak = Math.max(peak, s.rss);
      peakAnon = Math.max(peakAnon, s.anon);
      samples++;
    } catch {
      // the process is gone; the caller notices
    }
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
      return { peak, peakAnon, samples };
    },
  };
}

/** Samples the gateway's memory metrics every `intervalMs` until stop(); keeps the maximum of each gauge. */
export function sampleMetrics(gw, intervalMs = 1000) {
  const max = {};
  let pending = Promise.resolve();
  const tick = () => {
    pending = gatewayMemoryMetrics(gw).then((m) => {
      for (const [k, v] of Object.entries(m ?? {})) if (Number.isFinite(v)) max[k] = Math.max(max[k] ?? 0, v);
    });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      return Object.keys(max).length ? max : undefined;
    },
  };
}

export const mb = (bytes) => (Number.isFinite(bytes) ? `${(bytes / MB).toFixed(1)}` : '-');
