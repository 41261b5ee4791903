// Issue 18 §5: four targets side by side in one run on one machine, all on loopback, each in its own process:
//   direct    the provider simulator itself (the upstream),
//   bare      a bare Fastify 5 + undici proxy in front of it (bench/lib/bare-proxy.mjs),
//   gateway   this gateway's full governed path: a virtual key with budgets and limits at three levels (provider
//             config, key, team), a routing rule that applies, a circuit-breaker policy watching the model (enterprise
//             edition), request logging on (the default), usage, cost and metrics,
//   portkey   Portkey's open-source gateway from the npm registry (`@portkey-ai/gateway`, started with
//             `--headless`, the provider and the simulator's base URL in its `x-portkey-*` headers).
// For each connection count (default 50 and 200): a warm-up of each target, then rounds in which every target runs
// once, the order flipping each round. Prints req/s, the p50/p95/p99 each adds over direct, peak RSS of each serving
// process, and the gateway's req/s against the bare proxy's (target ≥ 0.70×) and Portkey's (target ≥ 10×). Every
// answer is checked (a chat.completion with usage, or a stream with its usage chunk and `data: [DONE]`).
//
// Portkey is installed on first use into bench/.peers/portkey (git-ignored; `npm install --prefix`, nothing of it is
// committed); --portkey-dir points at another install.
//
// Usage: npm run build && node bench/compare.mjs [seconds=8] [--connections 50,200] [--rounds 2] [--stream]
//          [--scale-out] [--portkey-version 1.15.2] [--portkey-dir DIR]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnBareProxy } from './lib/bare-proxy.mjs';
import { spawnChildService } from './lib/child-service.mjs';
import { runBench } from './lib/cleanup.mjs';
import { freePort, manage, startGateway, START_NODE_FLAGS } from './lib/gateway.mjs';
import { createGovernedKey } from './lib/governed-key.mjs';
import { chatBody, isChatCompletion, isCompleteStream, MODEL, PROVIDER_KEY, spawnSimulator } from './lib/inference.mjs';
import { percentile, ratio, runLoad, mergeLoads } from './lib/load.mjs';
import { mb, sampleRss } from './lib/memory.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '50,200' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    stream: { type: 'boolean', default: false },
    'scale-out': { type: 'boolean', default: false },
    'portkey-version': { type: 'string', default: '1.15.2' },
    'portkey-dir': { type: 'string' },
  },
});
const seconds = Number(positionals[0] ?? 8);
const connectionCounts = values.connections.split(',').map(Number);
const rounds = Number(values.rounds);
const stream = values.stream;

/** Portkey's server script, installed into bench/.peers/portkey on first use. */
function portkeyServerJs() {
  const dir = resolve(values['portkey-dir'] ?? 'bench/.peers/portkey');
  const script = join(dir, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  if (!existsSync(script)) {
    mkdirSync(dir, { recursive: true });
    console.log(`installing @portkey-ai/gateway@${values['portkey-version']} into ${dir}`);
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        dir,
        '--no-audit',
        '--no-fund',
        '--no-save',
        `@portkey-ai/gateway@${values['portkey-version']}`,
      ],
      { stdio: 'inherit' },
    );
  }
  return script;
}

/** Portkey as a child service; it prints a banner, not JSON, so it is wrapped in a one-line launcher. */
async function spawnPortkey(script) {
  const port = await freePort();
  const launcher = `
    process.env.NODE_ENV = 'production';
    // It reads process.argv.slice(2); under -e argv holds the node binary only.
    process.argv.splice(1, Infinity, 'portkey', '--port=${port}', '--headless');
    const out = process.stdout.write.bind(process.stdout);
    process.stdout.write = () => true; // its banner and spinner
    process.stdin.on('end', () => process.exit(0)).resume();
    await import(${JSON.stringify(script)});
    for (;;) {
      const ok = await fetch('http://127.0.0.1:${port}/', { signal: AbortSignal.timeout(1000) }).then(() => true, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    out(JSON.stringify({ url: 'http://127.0.0.1:${port}' }) + '\\n');
  `;
  return spawnChildService('portkey', [...START_NODE_FLAGS, '--input-type=module', '-e', launcher]);
}

/** The governed path: provider and key, a team and a key with budgets and limits at three levels, a rule, a policy. */
async function governGateway(gw, sim) {
  await manage(gw, 'POST', '/api/providers', { provider: 'openai', base_url: sim.openaiBase });
  await manage(gw, 'POST', '/api/providers/openai/keys', { name: 'bench', value: PROVIDER_KEY });
  const value = await createGovernedKey(gw, 'compare-governed');
  const rule = await manage(gw, 'POST', '/api/governance/routing-rules', {
    name: 'compare-rule',
    cel_expression: `model == "${MODEL}" && virtual_key_name == "compare-governed"`,
    targets: [{ provider: 'openai', model: MODEL, weight: 1 }],
  });
  await manage(gw, 'POST', '/api/circuit-breaker/policies', {
    name: 'compare-policy',
    primary_provider: 'openai',
    primary_model: MODEL,
    fallback_provider: 'openai',
    fallback_model: `${MODEL}-fallback`,
    condition: {
      operator: 'OR',
      signals: [{ source: 'response_header', header_name: 'x-overloaded', header_value: 'true' }],
    },
    default_cooldown: '30s',
  });
  return { value, ruleId: (rule.routing_rule ?? rule).id };
}

/** The governed path really is governed: the applied rule and the key's limits show on an answer. */
async function assertGoverned(url, headers, body, ruleId) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`governed probe: ${res.status} ${text}`);
  const seen = [...res.headers.keys()].filter((h) => h.startsWith('x-gateway-') || h.startsWith('x-ratelimit'));
  if (!seen.some((h) => h.includes('ratelimit')))
    throw new Error(`no rate-limit headers on the governed answer: ${seen}`);
  if (ruleId && !JSON.stringify([...res.headers.entries()]).includes(ruleId)) {
    console.log(
      `  note: the rule id is not in the answer's headers (${seen.join(', ')}); routing info shows it in logs`,
    );
  }
}

await runBench(
  async () => {
    console.log(machineLine());
    const scaleOut = scaleOutRequested();
    const sim = await spawnSimulator();
    const bare = await spawnBareProxy({ upstream: sim.openaiBase });
    const env = { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true', GATEWAY_EDITION: 'enterprise' };
    if (scaleOut) Object.assign(env, (await createScratchScaleOut()).env);
    const gw = await startGateway({ env, label: 'gateway' });
    const governed = await governGateway(gw, sim);
    const portkey = await spawnPortkey(portkeyServerJs());

    const body = chatBody({ model: MODEL, stream });
    const check = stream ? isCompleteStream : isChatCompletion;
    const targets = {
      direct: {
        pid: sim.pid,
        url: `${sim.openaiBase}/chat/completions`,
        headers: { authorization: `Bearer ${PROVIDER_KEY}` },
        body,
      },
      bare: {
        pid: bare.pid,
        url: `${bare.url}/v1/chat/completions`,
        headers: { authorization: `Bearer ${PROVIDER_KEY}` },
        body,
      },
      gateway: {
        pid: gw.pid,
        url: `${gw.base}/v1/chat/completions`,
        headers: { authorization: `Bearer ${governed.value}` },
        body: chatBody({ model: `openai/${MODEL}`, stream }),
      },
      portkey: {
        pid: portkey.pid,
        url: `${portkey.url}/v1/chat/completions`,
        headers: {
          authorization: `Bearer ${PROVIDER_KEY}`,
          'x-portkey-provider': 'openai',
          'x-portkey-custom-host': sim.openaiBase,
        },
        body,
      },
    };
    await assertGoverned(targets.gateway.url, targets.gateway.headers, targets.gateway.body, governed.ruleId);
    // Every target answers one checked request first. The peer may not support a mode here (Portkey 1.15.2 on Node
    // 20 answers every stream with 500, "TypeError: immutable" in its retry loop): it is reported and left out.
    for (const [name, target] of Object.entries(targets)) {
      const r = await runLoad({ ...target, method: 'POST', check, connections: 1, durationMs: 300, timeoutMs: 10_000 });
      if (!r.errors && !r.bad) continue;
      if (name !== 'portkey') throw new Error(`${name}: ${r.errors} errors, ${r.bad} refused (${r.firstBad})`);
      console.log(`portkey left out: it failed the first request (${r.firstBad ?? `${r.errors} errors`})`);
      delete targets.portkey;
    }

    const rows = [];
    for (const connections of connectionCounts) {
      console.log(`\n${stream ? 'streaming' : 'unary'}, ${connections} connections, ${rounds} rounds of ${seconds} s`);
      const names = Object.keys(targets);
      const load = (name, durationMs) =>
        runLoad({ ...targets[name], method: 'POST', check, connections, durationMs, timeoutMs: 30_000 });
      for (const name of names) await load(name, Number(values.warmup) * 1000);
      const runs = Object.fromEntries(names.map((n) => [n, []]));
      const peaks = Object.fromEntries(names.map((n) => [n, 0]));
      for (let round = 0; round < rounds; round++) {
        for (const name of round % 2 ? [...names].reverse() : names) {
          const rss = sampleRss(targets[name].pid);
          const r = await load(name, seconds * 1000);
          peaks[name] = Math.max(peaks[name], rss.stop().peak);
          if (r.errors || r.bad) throw new Error(`${name}: ${r.errors} errors, ${r.bad} refused (${r.firstBad})`);
          runs[name].push(r);
          console.log(`  round ${round + 1} ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms`);
        }
      }
      const merged = Object.fromEntries(names.map((n) => [n, mergeLoads(runs[n])]));
      const direct = merged.direct;
      const p = (r, q) => percentile(r.latencies, q);
      for (const name of names) {
        const r = merged[name];
        const added = (q) => (name === 'direct' ? '' : ` (+${(p(r, q) - p(direct, q)).toFixed(2)})`);
        rows.push(
          `| ${stream ? 'stream' : 'unary'}, ${connections} conn | ${name} | ${r.rps.toFixed(0)} | ` +
            `${p(r, 50).toFixed(2)}${added(50)} | ${p(r, 95).toFixed(2)}${added(95)} | ${p(r, 99).toFixed(2)}${added(99)} | ` +
            `${mb(peaks[name])} |`,
        );
      }
      const versusPortkey = merged.portkey
        ? `**gateway / portkey** ${ratio(merged.gateway.rps, merged.portkey.rps)} (target ≥ 10×)`
        : 'portkey left out (failed its first request)';
      rows.push(
        `| ${stream ? 'stream' : 'unary'}, ${connections} conn | **gateway / bare** ` +
          `${ratio(merged.gateway.rps, merged.bare.rps)} (target ≥ 0.70×), ${versusPortkey} | | | | | |`,
      );
    }
    console.log(`\n${machineLine('end')}`);
    console.log(
      '\n| load | target | req/s | p50 ms (added over direct) | p95 ms (added) | p99 ms (added) | peak RSS MB |',
    );
    console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
    for (const row of rows) console.log(row);
  },
  { maxSeconds: 1800 },
);
