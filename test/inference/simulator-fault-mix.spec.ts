import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_KINDS, type Simulator, startSimulator } from '../simulator/server.js';

// The simulator's seeded fault mix (issue 18 §2): the draws repeat with the seed, each kind does what the README says
// on the wire, and each capture records the fault, the answer's usage and whether the answer was written to its end.

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const chat = (i: number, stream = false) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: `request ${i} of the mix` }],
  ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
});

/** One request with a bounded wait: the status (0 for a reset) and the body read so far. */
async function send(body: unknown): Promise<{ status: number; text: string; failed: boolean }> {
  try {
    const res = await fetch(`${sim.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-mix', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(1000),
    });
    try {
      return { status: res.status, text: await res.text(), failed: false };
    } catch {
      return { status: res.status, text: '', failed: true };
    }
  } catch {
    return { status: 0, text: '', failed: true };
  }
}

describe('simulator fault mix', () => {
  it('draws the same faults for the same seed and requests, records each, and counts them', async () => {
    const run = async () => {
      sim.reset();
      sim.faultMix({ rate: 0.5, seed: 7, overload_headers: { 'x-overloaded': 'true' } });
      const results = [];
      for (let i = 0; i < 40; i++) results.push(await send(chat(i, i % 2 === 0)));
      const view = sim.faultMixView()!;
      sim.faultMix(null);
      return { results, captured: sim.requests(), view };
    };
    const a = await run();
    const b = await run();
    expect(a.captured.map((c) => c.fault)).toEqual(b.captured.map((c) => c.fault));
    expect(a.view).toEqual(b.view);
    expect(a.view.drawn).toBe(40);
    const faulted = a.captured.filter((c) => c.fault !== undefined);
    expect(Object.values(a.view.injected).reduce((s, n) => s + n, 0)).toBe(faulted.length);
    expect(faulted.length).toBeGreaterThan(8);
    expect(faulted.length).toBeLessThan(32);

    a.captured.forEach((c, i) => {
      const r = a.results[i]!;
      switch (c.fault) {
        case undefined:
          expect(r.status).toBe(200);
          expect(c.completed).toBe(true);
          // `request <i> of the mix` is 5 words in, `echo: …` 6 words out.
          expect(c.usage).toEqual({ input_tokens: 5, output_tokens: 6, total_tokens: 11 });
          // A stream's usage chunk, or the unary body's usage.
          expect(r.text).toContain('"total_tokens":11');
          break;
        case 'rate_limit':
          expect(r.status).toBe(429);
          break;
        case 'server_error':
          expect(r.status).toBe(500);
          break;
        case 'overloaded':
          expect(r.status).toBe(503);
          break;
        case 'reset':
          expect(r.status).toBe(0);
          expect(c.status).toBe(0);
          break;
        case 'stall':
        case 'broken_stream':
          expect(r.status).toBe(200);
          expect(r.failed).toBe(true);
          expect(c.completed).toBe(false);
          break;
      }
      if (c.fault !== undefined) expect(r.text).not.toContain('"total_tokens":11');
    });
  });

  it('is set and read through the control plane, and refuses a bad mix naming the field', async () => {
    const set = await fetch(`${sim.url}/_sim/fault-mix`, {
      method: 'POST',
      body: JSON.stringify({ rate: 1, kinds: ['server_error'] }),
    });
    expect(set.status).toBe(201);
    expect(((await set.json()) as { fault_mix: { kinds: string[] } }).fault_mix.kinds).toEqual(['server_error']);
    expect((await send(chat(1))).status).toBe(500);
    const view = (await (await fetch(`${sim.url}/_sim/fault-mix`)).json()) as { fault_mix: { injected: object } };
    expect(view.fault_mix.injected).toMatchObject({ server_error: 1 });
    expect((await fetch(`${sim.url}/_sim/fault-mix`, { method: 'DELETE' })).status).toBe(204);
    expect((await send(chat(2))).status).toBe(200);

    for (const [body, field] of [
      [{ rate: 2 }, 'rate'],
      [{ rate: 0.1, kinds: ['meteor'] }, 'kinds'],
      [{ rate: 0.1, bogus: 1 }, 'bogus'],
    ] as const) {
      const res = await fetch(`${sim.url}/_sim/fault-mix`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(field);
    }
    expect(FAULT_KINDS).toHaveLength(6);
  });
});
