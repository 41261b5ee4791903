// Open-loop paced load for the system suites, run as its own process (`node test/system/load-child.mjs <json>`), so
// the generator's CPU is not the test runner's nor the gateway's. Requests start on a fixed schedule (`rate` per
// second for `durationMs`) whether or not earlier ones have answered: a slow or stalled answer never slows the
// schedule, so a hang shows as a request that never ends, not as a lower rate. Every request is bounded by
// `timeoutMs` (then it is recorded with `client_error: 'timeout'`). A share `streamShare` of them ask for
// `stream: true` and are read to their end. Writes one JSON line per request to `out`, then `{"done":…}` on stdout.
//
// Input: { url, key, rate, durationMs, streamShare, timeoutMs, model, out, maxSockets? (default 1024) }
import { createWriteStream } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';
import http from 'node:http';

const opts = JSON.parse(process.argv[2] ?? '{}');
const { url, key, rate, durationMs, streamShare, timeoutMs, model, out } = opts;
const target = new URL('/v1/chat/completions', url);
const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 1024 });
const sink = createWriteStream(out);
const total = Math.round((rate * durationMs) / 1000);
const started = performance.now();
let finished = 0;
let stopping = false;
/** Records of the requests sent and not yet answered (reported as unanswered at the cutoff). */
const pending = new Map();

/** The last `data:` event of an SSE text, parsed ('[DONE]' as the string; undefined when none or not JSON). */
function lastEvent(text) {
  const lines = text.split('\n').filter((l) => l.startsWith('data:'));
  const last = lines.at(-1)?.slice(5).trim();
  if (last === undefined) return undefined;
  if (last === '[DONE]') return '[DONE]';
  try {
    return JSON.parse(last);
  } catch {
    return undefined;
  }
}

function send(i) {
  const stream = i % Math.round(1 / streamShare) === 0;
  const payload = JSON.stringify({
    model,
    // The request number is in the text: the simulator's captured body ties its attempts to this request.
    messages: [{ role: 'user', content: `load ${i} answer in words` }],
    max_tokens: 16,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
  const t0 = performance.now();
  const rec = { i, stream, t: Math.round(t0 - started) };
  pending.set(i, rec);
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    pending.delete(i);
    rec.ms = Math.round(performance.now() - t0);
    sink.write(`${JSON.stringify(rec)}\n`);
    finished += 1;
  };
  const req = http.request(
    target,
    {
      method: 'POST',
      agent,
      timeout: timeoutMs,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
        authorization: `Bearer ${key}`,
      },
    },
    (res) => {
      rec.status = res.statusCode;
      rec.request_id = res.headers['x-request-id'];
      rec.provider = res.headers['x-gateway-routing-info-provider'];
      rec.fallback_index = res.headers['x-gateway-fallback-index'];
      rec.content_type = res.headers['content-type'];
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        if (rec.content_type?.startsWith('text/event-stream')) {
          const last = lastEvent(text);
          rec.ended = last === '[DONE]' ? 'done' : last?.error ? 'error_event' : 'none';
          if (last?.error) rec.error = last;
          // The usage chunk the caller asked for: the tokens it was charged.
          for (const line of text.split('\n')) {
            if (!line.startsWith('data: {')) continue;
            try {
              const ev = JSON.parse(line.slice(6));
              if (ev.usage) rec.usage = ev.usage;
            } catch {
              rec.bad_event = true;
            }
          }
        } else {
          try {
            const body = JSON.parse(text);
            if (body.error) rec.error = body;
            else rec.usage = body.usage;
          } catch {
            rec.body = text.slice(0, 300);
          }
        }
        finish();
      });
      res.on('error', (e) => {
        rec.client_error = e.message;
        finish();
      });
    },
  );
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', (e) => {
    rec.client_error = e.message;
    finish();
  });
  req.end(payload);
}

// The schedule: every tick sends the requests whose start time has come (a late tick catches up at once).
let next = 0;
let sendSeconds = 0;
const interval = 1000 / rate;
const tick = setInterval(() => {
  const due = Math.min(total, Math.floor((performance.now() - started) / interval) + 1);
  while (next < due && !stopping) send(next++);
  if (next >= total) {
    clearInterval(tick);
    sendSeconds ||= (performance.now() - started) / 1000;
  }
}, 5);

// Bounded: once every request is sent, wait for the last answers at most `timeoutMs` more (each request times out
// by itself before that, unless it is still queued for one of the `maxSockets` sockets), then report.
const report = setInterval(() => {
  const late = performance.now() - started > durationMs + timeoutMs + 5000;
  if ((next >= total && finished >= total) || late) {
    clearInterval(report);
    clearInterval(tick);
    stopping = true;
    const seconds = (performance.now() - started) / 1000;
    // A request still waiting at the cutoff (queued for a socket, or never answered) is recorded as such.
    for (const rec of pending.values()) {
      rec.client_error = 'not answered by the cutoff';
      rec.ms = Math.round(performance.now() - started - rec.t);
      sink.write(`${JSON.stringify(rec)}\n`);
    }
    sink.end(() => {
      process.stdout.write(`${JSON.stringify({ done: true, sent: next, finished, seconds, sendSeconds })}\n`);
      agent.destroy();
      process.exit(0);
    });
  }
}, 50);

process.once('SIGTERM', () => process.exit(1));
