// What circuit breakers cost the request path: two gateways of this build side by side in front of one provider
// simulator, one with `--policies` enabled circuit breaker policies (one watches the benchmarked model with two header
// signals that never fire, so every answer's headers are read; the others watch other models) and one with none, each
// on its own fresh app dir (embedded default, or --scale-out). Rounds alternate so machine noise hits both alike; each
// round reports req/s and the CPU the serving gateway spent per request (its own process, from /proc). Unary chat
// completions.
//
// Usage: npm run build && node bench/circuit-breakers.mjs [seconds=8] [rounds=4] [--policies 10] [--connections 50]
//   [--scale-out]
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { manage, startGateway } from './lib/gateway.mjs';
import { chatBody, sideBySide, isChatCompletion, spawnSimulator, wireGateway } from './lib/inference.mjs';
import { runLoad } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut, scaleOutRequested } from './lib/scale-out.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: 'string', default: '50' },
    policies: { type: 'string', default: '10' },
    'scale-out': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 8);
const rounds = Number(positionals[1] ?? 4);
const connections = Number(values.connections);
const policyCount = Number(values.policies);
const scaleOut = values['scale-out'] || scaleOutRequested();

await runBench(
  async () => {
    console.log(machineLine());
    const sim = await spawnSimulator();
    const variants = [{ name: `${policyCount} policies` }, { name: 'no policies' }];
    for (const v of variants) {
      const env = { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true', GATEWAY_EDITION: 'enterprise' };
      if (scaleOut) Object.assign(env, (await createScratchScaleOut()).env);
      v.gw = await startGateway({ env, label: v.name });
      v.target = await wireGateway(v.gw, sim);
    }
    const [withPolicies] = variants;
    const model = withPolicies.target.model.split('/')[1];
    for (let i = 0; i < policyCount; i++) {
      await manage(withPolicies.gw, 'POST', '/api/circuit-breaker/policies', {
        name: `policy-${i}`,
        primary_provider: 'openai',
        primary_model: i === 0 ? model : `other-model-${i}`,
        fallback_provider: 'openai',
        fallback_model: `fallback-model-${i}`,
        condition: {
          operator: 'OR',
          signals: [
            { source: 'response_header', header_name: 'x-bench-overloaded', header_value: 'true' },
            { source: 'response_header', header_name: 'x-bench-status', header_contains: 'drain' },
          ],
        },
        default_cooldown: '30s',
      });
    }
    const body = chatBody({ model: withPolicies.target.model, stream: false });
    const load = (v, ms) =>
      runLoad({
        url: v.target.url,
        method: 'POST',
        headers: v.target.headers,
        body,
        check: isChatCompletion,
        connections,
        durationMs: ms,
      });
    // Every policy is in place and nothing is open: the policies gateway serves from the primary.
    const probe = await fetch(withPolicies.target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...withPolicies.target.headers },
      body,
    });
    await probe.text();
    if (probe.headers.get('x-gateway-routing-info-is-fallback')) throw new Error('the primary should serve');
    const listed = await manage(withPolicies.gw, 'GET', '/api/circuit-breaker/policies');
    if (listed.count !== policyCount) throw new Error(`expected ${policyCount} policies, got ${listed.count}`);
    console.log(`unary chat completions, ${connections} connections, ${rounds} x ${seconds} s`);
    const [on, off] = await sideBySide(variants, { rounds, seconds, load });
    console.log(
      `\n| at ${connections} connections | ${policyCount} policies req/s | no policies req/s | policies / none | CPU per request, policies / none |`,
    );
    console.log('| --- | --- | --- | --- | --- |');
    console.log(
      `| unary | ${on.rps.toFixed(0)} | ${off.rps.toFixed(0)} | **${(on.rps / off.rps).toFixed(2)}x** | ` +
        `${on.cpu.toFixed(3)} / ${off.cpu.toFixed(3)} ms (+${((on.cpu - off.cpu) * 1000).toFixed(0)} µs) |`,
    );
  },
  { maxSeconds: 300 + 2 * rounds * (seconds + 5) },
);
