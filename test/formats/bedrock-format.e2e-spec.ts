import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
  type ConverseStreamOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * `/bedrock` for the official `@aws-sdk/client-bedrock-runtime`, unchanged but for the endpoint and the virtual key as
 * its bearer token: Converse, ConverseStream, InvokeModel and InvokeModelWithResponseStream with a Claude body, served
 * by OpenAI, Anthropic and Gemini targets of the simulator.
 */
describe('provider format: /bedrock with the AWS SDK', () => {
  let s: InferenceStack;
  const client = (base = '/bedrock') =>
    new BedrockRuntimeClient({
      endpoint: `${s.gw.baseUrl}${base}`,
      region: 'us-east-1',
      token: { token: s.vk },
      authSchemePreference: ['httpBearerAuth'],
      maxAttempts: 1,
      // The SDK's default handler speaks HTTP/2, which a plain-HTTP gateway listener does not.
      requestHandler: new NodeHttpHandler(),
    });
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  const targets = [
    { model: 'openai/gpt-4o-mini', path: '/openai/v1/chat/completions', provider: 'openai' },
    { model: 'anthropic/claude-sonnet-4', path: '/anthropic/v1/messages', provider: 'anthropic' },
    {
      model: 'gemini/gemini-2.0-flash',
      path: '/gemini/v1beta/models/gemini-2.0-flash:generateContent',
      provider: 'gemini',
    },
  ];

  for (const base of ['/bedrock', '/pydanticai/bedrock']) {
    for (const target of targets) {
      it(`${base} Converse → ${target.provider}`, async () => {
        const answer = await client(base).send(
          new ConverseCommand({
            modelId: target.model,
            system: [{ text: 'be brief' }],
            messages: [{ role: 'user', content: [{ text: 'hello bedrock' }] }],
            inferenceConfig: { maxTokens: 100, temperature: 0.5 },
          }),
        );
        expect(answer.output?.message?.role).toBe('assistant');
        expect(answer.output?.message?.content?.[0]?.text).toBe('echo: hello bedrock');
        expect(answer.stopReason).toBe('end_turn');
        expect(answer.usage?.outputTokens).toBe(3);
        expect(answer.usage?.totalTokens).toBe((answer.usage?.inputTokens ?? 0) + 3);
        expect(answer.metrics?.latencyMs).toBeGreaterThanOrEqual(0);
        const upstream = seen(s.sim).at(-1);
        expect(upstream.path).toBe(target.path);
      });
    }
  }

  it('Converse with tools: a toolUse answer, then the toolResult turn', async () => {
    const toolConfig = {
      tools: [
        {
          toolSpec: {
            name: 'get_weather',
            description: 'Weather of a city',
            inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } },
          },
        },
      ],
      toolChoice: { auto: {} },
    };
    const first = await client().send(
      new ConverseCommand({
        modelId: 'anthropic/claude-sonnet-4',
        messages: [{ role: 'user', content: [{ text: 'call get_weather {"city":"Paris"}' }] }],
        toolConfig,
      }),
    );
    expect(first.stopReason).toBe('tool_use');
    const use = first.output?.message?.content?.[0]?.toolUse;
    expect(use?.name).toBe('get_weather');
    expect(use?.input).toEqual({ city: 'Paris' });
    const upstream = seen(s.sim).at(-1);
    expect(upstream.body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather of a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ]);
    const second = await client().send(
      new ConverseCommand({
        modelId: 'openai/gpt-4o-mini',
        messages: [
          { role: 'user', content: [{ text: 'call get_weather {"city":"Paris"}' }] },
          { role: 'assistant', content: [{ toolUse: use! }] },
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: use!.toolUseId!, content: [{ json: { temp: 21 } }] } }],
          },
        ],
        toolConfig,
      }),
    );
    expect(second.output?.message?.content?.[0]?.text).toBe('echo: {"temp":21}');
    expect(seen(s.sim).at(-1).body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: use!.toolUseId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: use!.toolUseId, content: '{"temp":21}' },
    ]);
  });

  async function collect(stream: AsyncIterable<ConverseStreamOutput> | undefined) {
    const events: ConverseStreamOutput[] = [];
    for await (const event of stream!) events.push(event);
    return events;
  }

  for (const target of targets) {
    it(`ConverseStream → ${target.provider}: text, messageStop and metadata usage`, async () => {
      const out = await client('/pydanticai/bedrock').send(
        new ConverseStreamCommand({
          modelId: target.model,
          messages: [{ role: 'user', content: [{ text: 'stream me please' }] }],
        }),
      );
      const events = await collect(out.stream);
      expect(Object.keys(events[0]!)).toEqual(['messageStart']);
      const text = events.map((e) => e.contentBlockDelta?.delta?.text ?? '').join('');
      expect(text).toBe('echo: stream me please');
      const stop = events.find((e) => e.messageStop);
      expect(stop?.messageStop?.stopReason).toBe('end_turn');
      const metadata = events.at(-1)!.metadata!;
      expect(metadata.usage?.outputTokens).toBe(4);
      expect(metadata.usage?.inputTokens).toBeGreaterThan(0);
      expect(seen(s.sim).at(-1).stream).toBe(true);
    });
  }

  it('ConverseStream with a tool call: contentBlockStart toolUse and input deltas', async () => {
    const out = await client().send(
      new ConverseStreamCommand({
        modelId: 'openai/gpt-4o-mini',
        messages: [{ role: 'user', content: [{ text: 'call lookup {"q":"x"}' }] }],
        toolConfig: { tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object' } } } }] },
      }),
    );
    const events = await collect(out.stream);
    const start = events.find((e) => e.contentBlockStart)!.contentBlockStart!;
    expect(start.start?.toolUse?.name).toBe('lookup');
    expect(start.start?.toolUse?.toolUseId).toBeTruthy();
    const input = events.map((e) => e.contentBlockDelta?.delta?.toolUse?.input ?? '').join('');
    expect(JSON.parse(input)).toEqual({ q: 'x' });
    expect(events.find((e) => e.messageStop)?.messageStop?.stopReason).toBe('tool_use');
  });

  const claudeBody = (text: string) =>
    JSON.stringify({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 200,
      system: 'be brief',
      messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    });

  for (const target of targets) {
    it(`InvokeModel with a Claude body → ${target.provider}`, async () => {
      const out = await client().send(
        new InvokeModelCommand({
          modelId: target.model,
          contentType: 'application/json',
          body: claudeBody('invoke me'),
        }),
      );
      const answer = JSON.parse(new TextDecoder().decode(out.body));
      expect(answer.type).toBe('message');
      expect(answer.role).toBe('assistant');
      expect(answer.content).toEqual([{ type: 'text', text: 'echo: invoke me' }]);
      expect(answer.stop_reason).toBe('end_turn');
      expect(answer.usage.output_tokens).toBe(3);
      expect(seen(s.sim).at(-1).path).toBe(target.path);
    });

    it(`InvokeModelWithResponseStream with a Claude body → ${target.provider}`, async () => {
      const out = await client('/pydanticai/bedrock').send(
        new InvokeModelWithResponseStreamCommand({ modelId: target.model, body: claudeBody('invoke stream') }),
      );
      const events: any[] = [];
      for await (const part of out.body!) events.push(JSON.parse(new TextDecoder().decode(part.chunk!.bytes)));
      expect(events[0].type).toBe('message_start');
      expect(events.at(-1).type).toBe('message_stop');
      const text = events
        .filter((e) => e.type === 'content_block_delta')
        .map((e) => e.delta.text)
        .join('');
      expect(text).toBe('echo: invoke stream');
      const delta = events.find((e) => e.type === 'message_delta');
      expect(delta.delta.stop_reason).toBe('end_turn');
      expect(delta.usage.output_tokens).toBe(3);
      expect(events.at(-1)['amazon-bedrock-invocationMetrics'].outputTokenCount).toBe(3);
    });
  }

  it('routing and cost headers come back as on /v1', async () => {
    const res = await s.inference.post('/bedrock/model/openai%2Fgpt-4o-mini/converse', {
      messages: [{ role: 'user', content: [{ text: 'headers' }] }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    expect(res.headers.get('x-gateway-routing-info-model')).toBe('gpt-4o-mini');
    expect(Number(res.headers.get('x-gateway-cost-usd'))).toBeGreaterThan(0);
  });

  it('bad input is a 400 ValidationException naming the field', async () => {
    const raw = await s.inference.post('/bedrock/model/openai%2Fgpt-4o-mini/converse', { system: [{ text: 'x' }] });
    expect(raw.status).toBe(400);
    expect(raw.headers.get('x-amzn-errortype')).toBe('ValidationException');
    expect(raw.body.message).toContain('messages');
    expect(raw.body.error.param).toBe('messages');
    expect(raw.body.event_id).toBeTruthy();
    const block = await s.inference.post('/bedrock/model/openai%2Fgpt-4o-mini/converse', {
      messages: [{ role: 'user', content: [{ text: 'x' }, { video: {} }] }],
    });
    expect(block.status).toBe(400);
    expect(block.body.error.param).toBe('messages[0].content[1]');
    const sdk = client().send(new ConverseCommand({ modelId: 'openai/gpt-4o-mini', messages: [] }));
    await expect(sdk).rejects.toBeInstanceOf(ValidationException);
    await expect(sdk).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    const titan = client().send(
      new InvokeModelCommand({ modelId: 'openai/gpt-4o-mini', body: JSON.stringify({ inputText: 'hi' }) }),
    );
    await expect(titan).rejects.toBeInstanceOf(ValidationException);
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('no key is a 401 UnrecognizedClientException; a SigV4 signature is told to use a bearer token', async () => {
    const anonymous = await s.gw.http.post('/bedrock/model/openai%2Fgpt-4o-mini/converse', {
      messages: [{ role: 'user', content: [{ text: 'x' }] }],
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('x-amzn-errortype')).toBe('UnrecognizedClientException');
    expect(anonymous.body.error.code).toBe('missing_credentials');
    const sigv4 = new BedrockRuntimeClient({
      endpoint: `${s.gw.baseUrl}/bedrock`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    });
    const refused = sigv4.send(
      new ConverseCommand({ modelId: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: [{ text: 'x' }] }] }),
    );
    await expect(refused).rejects.toMatchObject({
      name: 'UnrecognizedClientException',
      $metadata: { httpStatusCode: 401 },
      message: expect.stringContaining('bearer token'),
    });
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('ConverseStream: a failure mid-stream is raised by the SDK as its exception; one before it as an HTTP error', async () => {
    s.sim.scenario({ match: { family: 'anthropic' }, responses: [{ fault: 'stream_error', after_events: 3 }] });
    const out = await client().send(
      new ConverseStreamCommand({
        modelId: 'anthropic/claude-sonnet-4',
        messages: [{ role: 'user', content: [{ text: 'break please' }] }],
      }),
    );
    const events: ConverseStreamOutput[] = [];
    const iterate = (async () => {
      for await (const event of out.stream!) events.push(event);
    })();
    await expect(iterate).rejects.toBeInstanceOf(ServiceUnavailableException);
    expect(events[0]?.messageStart).toBeDefined();
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'rate_limit' }], repeat: true });
    const refused = client().send(
      new ConverseStreamCommand({
        modelId: 'openai/gpt-4o-mini',
        messages: [{ role: 'user', content: [{ text: 'x' }] }],
      }),
    );
    await expect(refused).rejects.toBeInstanceOf(ThrottlingException);
  });

  it('a provider 429 is a ThrottlingException', async () => {
    s.sim.scenario({ match: { family: 'openai' }, responses: [{ fault: 'rate_limit' }], repeat: true });
    const sdk = client().send(
      new ConverseCommand({ modelId: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: [{ text: 'x' }] }] }),
    );
    await expect(sdk).rejects.toBeInstanceOf(ThrottlingException);
    await expect(sdk).rejects.toMatchObject({ $metadata: { httpStatusCode: 429 } });
  });
});
