// What routing rules cost the request path: two gateways of this build side by side in front of one provider
// simulator, one without rules and one with `--rules` global rules (CEL over headers, model and the virtual key; none
// matches but the last, which routes to the same model, so both gateways do the same upstream work) plus as many
// rules scoped to other teams (never evaluated for this key), each on its own fresh app dir (embedded default,
// or --scale-out). Rounds alternate so machine noise hits both alike; each round reports req/s and the CPU the serving
// gateway spent per request (its own process, from /proc). Unary chat completions.
//
// Usage: npm run build && node bench/routing-rules.mjs [seconds=8] [rounds=4] [--rules 20] [--guarded] [--connections 50]
//   [--scale-out]
import { randomUUID } from 'node:crypto';
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
    rules: { type: 'string', default: '20' },
    // `"x-bench-tier" in headers && …`: the header's absence is a plain false, not an error inside CEL.
    guarded: { type: 'boolean', default: false },
    'scale-out': { type: 'boolean', default: false },
  },
});
const seconds = Number(positionals[0] ?? 8);
const rounds = Number(positionals[1] ?? 4);
const connections = Number(values.connections);
const ruleCount = Number(values.rules);
const scaleOut = values['scale-out'] || scaleOutRequested();

await runBench(
  async () => {
    console.log(machineLine());
    const sim = await spawnSimulator();
    const variants = [{ name: `${ruleCount} rules` }, { name: 'no rules' }];
    for (const v of variants) {
      const env = { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' };
      if (scaleOut) Object.assign(env, (await createScratchScaleOut()).env);
      v.gw = await startGateway({ env, label: v.name });
      v.target = await wireGateway(v.gw, sim);
    }
    const [withRules] = variants;
    const model = withRules.target.model.split('/')[1];
    for (let i = 0; i < ruleCount; i++) {
      const last = i === ruleCount - 1;
      await manage(withRules.gw, 'POST', '/api/governance/routing-rules', {
        name: `rule-${i}`,
        priority: i,
        cel_expression: last
          ? `model == "${model}" && virtual_key_name == "bench-inference"`
          : `${values.guarded ? '"x-bench-tier" in headers && ' : ''}headers["x-bench-tier"] == "tier-${i}" || ` +
            `(model.startsWith("claude-") && request_type == "embedding")`,
        targets: [{ provider: 'openai', model, weight: 1 }],
      });
      await manage(withRules.gw, 'POST', '/api/governance/routing-rules', {
        name: `other-team-${i}`,
        scope: 'team',
        scope_id: randomUUID(),
        cel_expression: 'true',
        targets: [{ provider: 'openai', model, weight: 1 }],
      });
    }
    const body = chatBody({ model: withRules.target.model, stream: false });
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
    // The last rule matched: the rules gateway does route by rule.
    const probe = await fetch(withRules.target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...withRules.target.headers },
      body,
    });
    await probe.text();
    const rule = probe.headers.get('x-gateway-routing-info-routing-rule-name');
    if (ruleCount > 0 && rule !== `rule-${ruleCount - 1}`)
      throw new Error(`expected the last rule to match, got ${rule}`);
    console.log(`unary chat completions, ${connections} connections, ${rounds} x ${seconds} s`);
    const [on, off] = await sideBySide(variants, { rounds, seconds, load });
    console.log(
      `\n| at ${connections} connections | ${ruleCount} rules req/s | no rules req/s | rules / none | CPU per request, rules / none |`,
    );
    console.log('| --- | --- | --- | --- | --- |');
    console.log(
      `| unary | ${on.rps.toFixed(0)} | ${off.rps.toFixed(0)} | **${(on.rps / off.rps).toFixed(2)}x** | ` +
        `${on.cpu.toFixed(3)} / ${off.cpu.toFixed(3)} ms (+${((on.cpu - off.cpu) * 1000).toFixed(0)} µs) |`,
    );
  },
  { maxSeconds: 300 + 2 * rounds * (seconds + 5) },
);
