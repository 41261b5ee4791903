import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
} from '@aws-sdk/client-bedrock-runtime';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedrockAdapter } from '../../src/modules/inference/providers/bedrock/bedrock.adapter.js';
import type { ProviderTarget, StreamOutput } from '../../src/modules/inference/providers/shared/provider-adapter.js';
import { SIM_AWS } from '../simulator/families/bedrock.js';
import { type Simulator, startSimulator } from '../simulator/server.js';

// Pure conversions of the bedrock adapter (request, response, event stream, errors, signing), and the simulator's
// bedrock family proven against the official AWS SDK pointed straight at it (its SigV4 check and its frames).

const CLAUDE = 'anthropic.claude-3-5-sonnet-20240620-v1:0';

function target(overrides: Partial<ProviderTarget> = {}): ProviderTarget {
  return {
    provider: 'bedrock',
    baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
    extraHeaders: {},
    key: { id: 'k1', name: 'k1', value: '', bedrock: { region: 'eu-west-3', ...SIM_AWS } },
    model: CLAUDE,
    ...overrides,
  };
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);
function frame(headers: Record<string, string>, payload: unknown): Uint8Array {
  const tagged: Record<string, { type: 'string'; value: string }> = {};
  for (const [name, value] of Object.entries(headers)) tagged[name] = { type: 'string', value };
  return codec.encode({ headers: tagged, body: fromUtf8(JSON.stringify(payload)) });
}
const event = (type: string, payload: unknown) =>
  frame({ ':event-type': type, ':message-type': 'event', ':content-type': 'application/json' }, payload);
const concat = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));

describe('bedrock adapter: requests', () => {
  it('translates a chat body to Converse, with the model id one encoded path segment', () => {
    const call = bedrockAdapter.buildRequest(
      'chat',
      {
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'be brief' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'hi' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
          { role: 'tool', tool_call_id: 't1', content: 'ok' },
        ],
        max_tokens: 50,
        temperature: 0.2,
        top_p: 0.9,
        stop: 'END',
        tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' } } }],
        tool_choice: 'required',
      },
      target(),
      false,
    );
    // No base_url override: the key's region picks the endpoint.
    expect(call.url).toBe(
      'https://bedrock-runtime.eu-west-3.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
    );
    expect(JSON.parse(call.body!)).toEqual({
      messages: [
        { role: 'user', content: [{ text: 'hi' }, { image: { format: 'png', source: { bytes: 'AAAA' } } }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: { a: 1 } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'ok' }] } }] },
      ],
      system: [{ text: 'be brief' }],
      inferenceConfig: { maxTokens: 50, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
      toolConfig: {
        tools: [{ toolSpec: { name: 'f', description: 'd', inputSchema: { json: { type: 'object' } } } }],
        toolChoice: { any: {} },
      },
    });
  });

  it('encodes an ARN whole (":" and "/") and streams through converse-stream', () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-sonnet-20240620-v1:0';
    const call = bedrockAdapter.buildRequest(
      'chat',
      { model: arn, messages: [{ role: 'user', content: 'x' }] },
      target({ model: arn, baseUrl: 'http://sim/bedrock' }),
      true,
    );
    expect(call.url).toBe(
      'http://sim/bedrock/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream',
    );
    expect(call.headers.accept).toBe('application/vnd.amazon.eventstream');
  });

  it('sends Claude Messages bodies to invoke when bedrock_api is invoke; refuses it for other models', () => {
    const call = bedrockAdapter.buildRequest(
      'chat',
      { model: CLAUDE, bedrock_api: 'invoke', messages: [{ role: 'user', content: 'x' }], max_tokens: 9 },
      target(),
      true,
    );
    expect(call.url.endsWith('/invoke-with-response-stream')).toBe(true);
    expect(JSON.parse(call.body!)).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      messages: [{ role: 'user', content: 'x' }],
      max_tokens: 9,
    });
    expect(() =>
      bedrockAdapter.buildRequest(
        'chat',
        { model: 'meta.llama3', bedrock_api: 'invoke', messages: [] },
        target({ model: 'meta.llama3' }),
        false,
      ),
    ).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('refuses an image by URL as a 400 naming the field', () => {
    expect(() =>
      bedrockAdapter.buildRequest(
        'chat',
        { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] },
        target(),
        false,
      ),
    ).toThrow(expect.objectContaining({ status: 400, param: 'messages[0].content[0].image_url.url' }));
  });

  it('signs with SigV4: scope, signed headers, payload hash, session token', async () => {
    const t = target({
      key: { id: 'k', name: 'k', value: '', bedrock: { region: 'us-west-2', ...SIM_AWS, sessionToken: 'tok' } },
    });
    const call = bedrockAdapter.buildRequest('chat', { messages: [{ role: 'user', content: 'x' }] }, t, false);
    const signed = await bedrockAdapter.authorize!(call, t, {
      now: () => Date.UTC(2026, 0, 2, 3, 4, 5),
      post: () => Promise.reject(new Error('no')),
      get: () => Promise.reject(new Error('no')),
    });
    expect(signed.headers['x-amz-date']).toBe('20260102T030405Z');
    expect(signed.headers['x-amz-security-token']).toBe('tok');
    expect(signed.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(signed.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDSIMULATOR\/20260102\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
    expect(signed.headers.host).toBeUndefined();
    const bearer = await bedrockAdapter.authorize!(call, target({ key: { id: 'b', name: 'b', value: 'br-key' } }), {
      now: () => 0,
      post: () => Promise.reject(new Error('no')),
      get: () => Promise.reject(new Error('no')),
    });
    expect(bearer.headers.authorization).toBe('Bearer br-key');
  });
});

describe('bedrock adapter: answers', () => {
  it('maps a Converse answer: text, tool use, reasoning with its signature, stop reason, cache usage', () => {
    const parsed = bedrockAdapter.parseResponse(
      'chat',
      {
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'hmm', signature: 's' } } },
              { text: 'hello' },
              { toolUse: { toolUseId: 'tu1', name: 'f', input: { a: 1 } } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 3, outputTokens: 4, totalTokens: 12, cacheReadInputTokens: 2, cacheWriteInputTokens: 3 },
      },
      target(),
    );
    expect(parsed.body.choices).toEqual([
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: {
          role: 'assistant',
          content: 'hello',
          reasoning_content: 'hmm',
          // The signature Claude needs back on the next turn, as Anthropic answers carry it.
          thinking_blocks: [{ type: 'thinking', thinking: 'hmm', signature: 's' }],
          tool_calls: [{ id: 'tu1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
      },
    ]);
    expect(parsed.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 4,
      total_tokens: 12,
      prompt_tokens_details: { cached_read_tokens: 2, cached_write_tokens: 3 },
    });
  });

  it('decodes ConverseStream frames split at every byte into chunks with usage on the last', () => {
    const bytes = concat([
      event('messageStart', { role: 'assistant' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      event('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tu', name: 'f' } } }),
      event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"a":' } } }),
      event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '1}' } } }),
      event('contentBlockStop', { contentBlockIndex: 1 }),
      event('messageStop', { stopReason: 'tool_use' }),
      event('metadata', { usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 } }),
    ]);
    const decoder = bedrockAdapter.streamDecoder('chat', target());
    const out: StreamOutput[] = [];
    for (let i = 0; i < bytes.length; i++) out.push(...decoder.pushBytes!(bytes.subarray(i, i + 1)));
    out.push(...decoder.end());
    const deltas = out.map((o) => (o.kind === 'chunk' ? (o.chunk.choices as any[])[0] : o));
    expect(deltas.map((d) => d.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hi' },
      { tool_calls: [{ index: 0, id: 'tu', type: 'function', function: { name: 'f', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '1}' } }] },
      {},
    ]);
    expect(deltas.at(-1).finish_reason).toBe('tool_calls');
    expect(out.at(-1)).toMatchObject({
      kind: 'chunk',
      usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
    });
  });

  it('turns an exception frame into a classified error, and a cut stream into a 502', () => {
    const throttled = bedrockAdapter.streamDecoder('chat', target());
    const out = throttled.pushBytes!(
      concat([
        event('messageStart', { role: 'assistant' }),
        frame({ ':message-type': 'exception', ':exception-type': 'throttlingException' }, { message: 'slow down' }),
      ]),
    );
    expect(out.at(-1)).toEqual({
      kind: 'error',
      error: { status: 429, reason: 'provider_rate_limited', message: 'slow down', type: 'throttlingException' },
    });
    const cut = bedrockAdapter.streamDecoder('chat', target());
    cut.pushBytes!(event('messageStart', { role: 'assistant' }).subarray(0, 10));
    expect(cut.end()).toEqual([
      { kind: 'error', error: expect.objectContaining({ status: 502, reason: 'provider_server_error' }) },
    ]);
  });

  it('classifies HTTP errors from x-amzn-ErrorType and the body', () => {
    expect(
      bedrockAdapter.parseError(
        429,
        { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
        '{"message":"Too many requests"}',
      ),
    ).toEqual({
      status: 429,
      reason: 'provider_rate_limited',
      message: 'Too many requests',
      type: 'ThrottlingException',
    });
    expect(
      bedrockAdapter.parseError(403, {}, '{"Message":"bad sig","__type":"com.amazon#InvalidSignatureException"}'),
    ).toEqual({
      status: 403,
      reason: 'provider_auth_failed',
      message: 'bad sig',
      type: 'InvalidSignatureException',
    });
    expect(bedrockAdapter.parseError(503, {}, '')).toMatchObject({ status: 503, reason: 'provider_overloaded' });
  });

  it('lists models from the control-plane host of the key region', () => {
    expect(bedrockAdapter.buildListModels(target()).url).toBe(
      'https://bedrock.eu-west-3.amazonaws.com/foundation-models',
    );
    expect(bedrockAdapter.buildListModels(target({ baseUrl: 'http://sim/bedrock' })).url).toBe(
      'http://sim/bedrock/foundation-models',
    );
    expect(bedrockAdapter.parseListModels({ modelSummaries: [{ modelId: 'a' }, { x: 1 }] })).toEqual([
      { id: 'a', owned_by: 'bedrock' },
    ]);
  });
});

describe('bedrock simulator against @aws-sdk/client-bedrock-runtime', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());
  const client = (secretAccessKey: string = SIM_AWS.secretAccessKey) =>
    new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: `${sim.url}/bedrock`,
      credentials: { accessKeyId: SIM_AWS.accessKeyId, secretAccessKey },
      maxAttempts: 1,
      // The SDK's default for this client is HTTP/2; the simulator speaks HTTP/1.1 (as Bedrock also does).
      requestHandler: new NodeHttpHandler(),
    });

  it('verifies the SDK signature (":" double-encoded) and answers Converse', async () => {
    const out = await client().send(
      new ConverseCommand({ modelId: CLAUDE, messages: [{ role: 'user', content: [{ text: 'hello there' }] }] }),
    );
    expect(out.output?.message?.content?.[0]?.text).toBe('echo: hello there');
    expect(out.stopReason).toBe('end_turn');
    const seen = sim.requests({ family: 'bedrock' }).at(-1)!;
    expect(seen.path).toBe('/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse');
    expect(seen.key).toBe(SIM_AWS.accessKeyId);
    expect(seen.model).toBe(CLAUDE);
  });

  it('streams event-stream frames the SDK decodes', async () => {
    const out = await client().send(
      new ConverseStreamCommand({ modelId: CLAUDE, messages: [{ role: 'user', content: [{ text: 'a b' }] }] }),
    );
    const text: string[] = [];
    let usage: unknown;
    for await (const e of out.stream!) {
      if (e.contentBlockDelta?.delta?.text) text.push(e.contentBlockDelta.delta.text);
      if (e.metadata) usage = e.metadata.usage;
    }
    expect(text.join('')).toBe('echo: a b');
    expect(usage).toMatchObject({ inputTokens: 2, outputTokens: 3 });
  });

  it('answers InvokeModel for Claude and refuses a wrong secret with InvalidSignatureException', async () => {
    const out = await client().send(
      new InvokeModelCommand({
        modelId: CLAUDE,
        body: JSON.stringify({
          anthropic_version: 'bedrock-2023-05-31',
          max_tokens: 20,
          messages: [{ role: 'user', content: 'yo' }],
        }),
      }),
    );
    expect(JSON.parse(Buffer.from(out.body).toString()).content[0].text).toBe('echo: yo');
    await expect(
      client('wrong').send(
        new ConverseCommand({ modelId: CLAUDE, messages: [{ role: 'user', content: [{ text: 'x' }] }] }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidSignatureException', $metadata: { httpStatusCode: 403 } });
  });
});
