import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseStreamOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { created, seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { SIM_AWS } from '../simulator/families/bedrock.js';

const CLAUDE = 'anthropic.claude-3-5-sonnet-20240620-v1:0';

/**
 * Bedrock in, Bedrock out: the AWS SDK pointed at the gateway's `/bedrock` with a bare Bedrock model id, served by the
 * `bedrock` adapter, which signs its own call with the key's AWS credentials (verified by the simulator). The
 * caller's bearer virtual key never reaches AWS; the gateway's SigV4 signature does.
 */
describe('provider format: /bedrock served by the bedrock provider', () => {
  let s: InferenceStack;
  let client: BedrockRuntimeClient;
  beforeAll(async () => {
    s = await startInferenceStack();
    await created(s.admin.post('/api/providers', { provider: 'bedrock', base_url: `${s.sim.url}/bedrock` }));
    await created(
      s.admin.post('/api/providers/bedrock/keys', {
        name: 'br-sigv4',
        bedrock_key_config: {
          region: 'us-east-1',
          access_key: SIM_AWS.accessKeyId,
          secret_key: SIM_AWS.secretAccessKey,
        },
      }),
    );
    client = new BedrockRuntimeClient({
      endpoint: `${s.gw.baseUrl}/bedrock`,
      region: 'us-east-1',
      token: { token: s.vk },
      authSchemePreference: ['httpBearerAuth'],
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    });
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('Converse with a bare model id goes to bedrock, signed with SigV4, and the answer comes back as Converse', async () => {
    const answer = await client.send(
      new ConverseCommand({ modelId: CLAUDE, messages: [{ role: 'user', content: [{ text: 'round trip' }] }] }),
    );
    expect(answer.output?.message?.content?.[0]?.text).toBe('echo: round trip');
    expect(answer.stopReason).toBe('end_turn');
    expect(answer.usage?.outputTokens).toBe(3);
    const upstream = seen(s.sim, { family: 'bedrock' }).at(-1);
    expect(upstream.path).toBe('/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse');
    expect(upstream.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID/);
    expect(upstream.headers.authorization).not.toContain(s.vk);
    expect(upstream.body.messages).toEqual([{ role: 'user', content: [{ text: 'round trip' }] }]);
  });

  it('ConverseStream: the upstream event stream decoded and re-encoded frame by frame', async () => {
    const answer = await client.send(
      new ConverseStreamCommand({ modelId: CLAUDE, messages: [{ role: 'user', content: [{ text: 'stream it' }] }] }),
    );
    const events: ConverseStreamOutput[] = [];
    for await (const event of answer.stream!) events.push(event);
    const text = events.map((e) => e.contentBlockDelta?.delta?.text ?? '').join('');
    expect(text).toBe('echo: stream it');
    expect(events[0]!.messageStart?.role).toBe('assistant');
    expect(events.find((e) => e.messageStop)?.messageStop?.stopReason).toBe('end_turn');
    expect(events.at(-1)!.metadata?.usage?.outputTokens).toBe(3);
    expect(seen(s.sim, { family: 'bedrock' }).at(-1).path).toMatch(/\/converse-stream$/);
  });
});
