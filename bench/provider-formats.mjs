// What a provider-format endpoint's conversion costs: one gateway in front of the provider simulator (provider
// `openai`), loaded in turn through `/v1/chat/completions` (OpenAI body, no conversion) and through
// `/anthropic/v1/messages` with `model: "openai/gpt-4o-mini"` (an Anthropic body converted to the canonical request,
// the OpenAI answer converted back to an Anthropic message, or event by event for `--stream`). Rounds alternate so
// machine noise hits both alike; each round reports req/s and the gateway's CPU per request (its own process).
//
// Usage: npm run build && node bench/provider-formats.mjs [seconds=8] [rounds=4] [--stream] [--connections 50]
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { startGateway } from './lib/gateway.mjs';
import {
  MODEL,
  chatBody,
  isChatCompletion,
  isCompleteStream,
  sideBySide,
  spawnSimulator,
  wireGateway,
} from './lib/inference.mjs';
import { runLoad } from './lib/load.mjs';
import { machineLine } from './lib/report.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { connections: { type: 'string', default: '50' }, stream: { type: 'boolean', default: false } },
});
const seconds = Number(positionals[0] ?? 8);
const rounds = Number(positionals[1] ?? 4);
const connections = Number(values.connections);
const stream = values.stream;

/** The same conversation as `chatBody`, in Anthropic's Messages shape. */
function anthropicBody() {
  return JSON.stringify({
    model: `openai/${MODEL}`,
    system: 'You are a benchmark.',
    messages: [{ role: 'user', content: 'Say hello to the inference benchmark in a dozen words or so, please.' }],
    max_tokens: 64,
    ...(stream ? { stream: true } : {}),
  });
}

/** Load check: an Anthropic message with text and usage, or a stream ending with message_stop after its usage. */
function isAnthropicAnswer(status, text) {
  if (status !== 200) return false;
  if (stream)
    return (
      /event: message_stop\r?\n/.test(text) && /"output_tokens":\s*[1-9]/.test(text) && !text.includes('event: error')
    );
  try {
    const body = JSON.parse(text);
    return body.type === 'message' && typeof body.content?.[0]?.text === 'string' && body.usage?.output_tokens > 0;
  } catch {
    return false;
  }
}

await runBench(
  async () => {
    console.log(machineLine());
    const sim = await spawnSimulator();
    const gw = await startGateway({ env: { GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true' }, label: 'gateway' });
    const target = await wireGateway(gw, sim);
    const variants = [
      {
        name: '/v1 (openai body)',
        gw,
        url: target.url,
        body: chatBody({ model: target.model, stream }),
        check: stream ? isCompleteStream : isChatCompletion,
      },
      {
        name: '/anthropic → openai',
        gw,
        url: `${gw.base}/anthropic/v1/messages`,
        body: anthropicBody(),
        check: isAnthropicAnswer,
      },
    ];
    const load = (v, ms) =>
      runLoad({
        url: v.url,
        method: 'POST',
        headers: target.headers,
        body: v.body,
        check: v.check,
        connections,
        durationMs: ms,
      });
    console.log(`${stream ? 'streamed' : 'unary'} chat, ${connections} connections, ${rounds} x ${seconds} s`);
    const [direct, converted] = await sideBySide(variants, { rounds, seconds, load });
    console.log(
      `\n| ${stream ? 'stream' : 'unary'}, ${connections} connections | /v1 req/s | /anthropic req/s | /anthropic / /v1 | CPU per request, /anthropic / /v1 |`,
    );
    console.log('| --- | --- | --- | --- | --- |');
    console.log(
      `| one gateway | ${direct.rps.toFixed(0)} | ${converted.rps.toFixed(0)} | **${(converted.rps / direct.rps).toFixed(2)}x** | ` +
        `${converted.cpu.toFixed(3)} / ${direct.cpu.toFixed(3)} ms (+${((converted.cpu - direct.cpu) * 1000).toFixed(0)} µs) |`,
    );
  },
  { maxSeconds: 300 + 2 * rounds * (seconds + 5) },
);
