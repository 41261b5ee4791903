import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * The `/openai` provider-format set and the framework prefixes over it: the official openai SDK pointed at each base
 * URL, a bare model going to OpenAI, a prefixed one to its provider, errors as GatewayErrors.
 */
describe('provider format: /openai and the framework /v1 prefixes', () => {
  let s: InferenceStack;
  const client = (base: string) =>
    new OpenAI({ baseURL: `${s.gw.baseUrl}${base}`, apiKey: s.vk, maxRetries: 0, timeout: 20_000 });
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  for (const base of ['/openai/v1', '/openai', '/litellm/v1', '/langchain/v1', '/pydanticai/v1']) {
    it(`${base}: a bare model is OpenAI's, served and priced as on /v1`, async () => {
      const { data, response } = await client(base)
        .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'bare model' }] })
        .withResponse();
      expect(data.choices[0]!.message.content).toContain('bare model');
      expect(response.headers.get('x-gateway-routing-info-provider')).toBe('openai');
      expect(response.headers.get('x-gateway-routing-info-model')).toBe('gpt-4o-mini');
      expect(Number(response.headers.get('x-gateway-cost-usd'))).toBeGreaterThan(0);
      const upstream = seen(s.sim).at(-1);
      expect(upstream.path).toBe('/openai/v1/chat/completions');
      expect(upstream.body.model).toBe('gpt-4o-mini');
    });
  }

  it('a provider-prefixed model goes to that provider (anthropic through the OpenAI shape), streamed', async () => {
    const stream = await client('/litellm/v1').chat.completions.create({
      model: 'anthropic/claude-sonnet-4',
      messages: [{ role: 'user', content: 'cross provider' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toContain('cross provider');
    expect(seen(s.sim).at(-1).path).toBe('/anthropic/v1/messages');
  });

  it('embeddings and responses on /openai/v1', async () => {
    const embedded = await client('/openai/v1').embeddings.create({ model: 'text-embedding-3-small', input: 'x' });
    expect(embedded.data[0]!.embedding.length).toBeGreaterThan(0);
    const response = await client('/openai/v1').responses.create({ model: 'gpt-4o-mini', input: 'respond' });
    expect(response.output_text).toContain('respond');
  });

  it('media on /openai/v1 with bare models: speech bytes, a multipart transcription, image generation', async () => {
    const speech = await client('/openai/v1')
      .audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'openai format', response_format: 'wav' })
      .asResponse();
    expect(speech.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await speech.arrayBuffer()).toString()).toContain('SIMAUDIO:openai format');
    expect(seen(s.sim).at(-1)).toMatchObject({ path: '/openai/v1/audio/speech', body: { model: 'gpt-4o-mini-tts' } });
    const transcript = await client('/litellm/v1').audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(Buffer.alloc(64, 1), 'clip.wav', { type: 'audio/wav' }),
    });
    expect(transcript.text).toBe('transcript of clip.wav (64 bytes)');
    expect(seen(s.sim).at(-1)).toMatchObject({
      path: '/openai/v1/audio/transcriptions',
      body: { model: 'whisper-1', file: { filename: 'clip.wav', size: 64 } },
    });
    const image = await client('/openai').images.generate({ model: 'gpt-image-1', prompt: 'a gateway' });
    expect(image.data?.length).toBe(1);
    expect(seen(s.sim).at(-1)).toMatchObject({ path: '/openai/v1/images/generations', body: { model: 'gpt-image-1' } });
  });

  it('errors are GatewayErrors naming the field; no virtual key is a 401', async () => {
    const bad = await s.inference.post('/openai/v1/chat/completions', { model: 'gpt-4o-mini', messages: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('messages');
    expect(bad.body.is_gateway_error).toBe(true);
    const anonymous = await s.gw.http.post('/pydanticai/v1/chat/completions', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('missing_credentials');
  });
});
