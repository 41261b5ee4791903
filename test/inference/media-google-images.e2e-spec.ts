import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { SIM_PNG_BASE64 } from '../simulator/families/openai-media.js';
import { vertexServiceAccount } from '../simulator/families/vertex.js';
import { expectInferenceError, seen, startInferenceStack, type InferenceStack } from './inference-kit.js';
import { addProvider } from './more-providers-kit.js';

const VERTEX_MODELS = '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models';

/** /v1/images/generations on Google's image models: Imagen `:predict` and Gemini image models, Gemini and Vertex. */
describe(`media: google image generation on gemini and vertex (${RUN_MODE})`, () => {
  let s: InferenceStack;

  beforeAll(async () => {
    s = await startInferenceStack();
    await addProvider(s, 'vertex', `${s.sim.url}/vertex`, [
      {
        name: 'vx-1',
        vertex_key_config: {
          project_id: 'sim-project',
          region: 'us-central1',
          auth_credentials: vertexServiceAccount(s.sim.url),
        },
      },
    ]);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('gemini imagen: the SDK gets n images as b64_json from one :predict call with sampleCount and aspectRatio', async () => {
    const res = await s.openai.images
      .generate({ model: 'gemini/imagen-4.0-generate-001', prompt: 'a red fox', n: 2, size: '1792x1024' })
      .withResponse();
    expect(res.response.headers.get('x-gateway-routing-info-provider')).toBe('gemini');
    expect(res.data.data).toEqual([{ b64_json: SIM_PNG_BASE64 }, { b64_json: SIM_PNG_BASE64 }]);
    expect(typeof res.data.created).toBe('number');
    expect(res.data.usage).toBeUndefined();
    const [call] = seen(s.sim);
    expect(call.path).toBe('/gemini/v1beta/models/imagen-4.0-generate-001:predict');
    expect(call.headers['x-goog-api-key']).toBe('gem-key-1');
    // 1792x1024 is 7:4, which Imagen does not take: the nearest ratio it takes is sent.
    expect(call.body).toEqual({
      instances: [{ prompt: 'a red fox' }],
      parameters: { sampleCount: 2, aspectRatio: '16:9' },
    });
  });

  it('gemini imagen: size becomes its aspect ratio, exact or nearest', async () => {
    for (const [size, aspectRatio] of [
      ['1920x1080', '16:9'],
      ['1024x1536', '3:4'],
      ['600x1200', '9:16'],
    ]) {
      const res = await s.inference.post('/v1/images/generations', {
        model: 'gemini/imagen-4.0-generate-001',
        prompt: 'a wide valley',
        size,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual([{ b64_json: SIM_PNG_BASE64 }]);
      expect(seen(s.sim).at(-1).body.parameters).toEqual({ sampleCount: 1, aspectRatio });
    }
  });

  it('gemini image model: generateContent with IMAGE modality, the inline image and token usage back', async () => {
    const res = await s.inference.post('/v1/images/generations', {
      model: 'gemini/gemini-2.5-flash-image',
      prompt: 'a small robot',
      size: '1024x1024',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([{ b64_json: SIM_PNG_BASE64 }]);
    // Prompt 3 words; output: "Here is a small robot" (5 words) + 1290 image tokens.
    expect(res.body.usage).toEqual({
      input_tokens: 3,
      output_tokens: 1295,
      total_tokens: 1298,
      input_tokens_details: { text_tokens: 3 },
    });
    const [call] = seen(s.sim);
    expect(call.path).toBe('/gemini/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(call.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a small robot' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '1:1' } },
    });
    const row = (await s.admin.get(`/api/logs/${res.headers.get('x-request-id')}`)).body;
    expect(row).toMatchObject({
      object: 'image_generation',
      provider: 'gemini',
      model: 'gemini-2.5-flash-image',
      status_code: 200,
      token_usage: { prompt_tokens: 3, completion_tokens: 1295, total_tokens: 1298 },
      output_message: { object: 'images_summary', count: 1, images: [{ b64_json_chars: SIM_PNG_BASE64.length }] },
    });
    expect(JSON.stringify(row)).not.toContain(SIM_PNG_BASE64);
  });

  it('vertex: imagen :predict and a gemini image model on the publisher paths, with the OAuth token', async () => {
    const imagen = await s.inference.post('/v1/images/generations', {
      model: 'vertex/imagen-4.0-generate-001',
      prompt: 'a harbour',
      n: 3,
      size: '768x1024',
    });
    expect(imagen.status, imagen.text).toBe(200);
    expect(imagen.body.data).toHaveLength(3);
    expect(imagen.headers.get('x-gateway-routing-info-provider')).toBe('vertex');
    const gemini = await s.openai.images.generate({ model: 'vertex/gemini-2.5-flash-image', prompt: 'a harbour' });
    expect(gemini.data).toEqual([{ b64_json: SIM_PNG_BASE64 }]);
    expect(gemini.usage?.total_tokens).toBe(1296);
    const calls = seen(s.sim, { family: 'vertex' }).filter((c) => c.path !== '/vertex/token');
    expect(calls.map((c) => c.path)).toEqual([
      `${VERTEX_MODELS}/imagen-4.0-generate-001:predict`,
      `${VERTEX_MODELS}/gemini-2.5-flash-image:generateContent`,
    ]);
    expect(calls[0].body).toEqual({
      instances: [{ prompt: 'a harbour' }],
      parameters: { sampleCount: 3, aspectRatio: '3:4' },
    });
    expect(calls[1].body.generationConfig).toEqual({ responseModalities: ['TEXT', 'IMAGE'] });
    for (const call of calls) expect(call.headers.authorization).toMatch(/^Bearer /);
  });

  it('bad input is a 400 naming the field, nothing sent upstream', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ model: 'gemini/imagen-4.0-generate-001', prompt: 'x', response_format: 'url' }, 'response_format'],
      [{ model: 'gemini/imagen-4.0-generate-001', prompt: 'x', size: '0x1024' }, 'size'],
      [{ model: 'gemini/imagen-4.0-generate-001', prompt: 'x', size: 'big' }, 'size'],
      [{ model: 'gemini/imagen-4.0-generate-001', prompt: 'x', n: 5 }, 'n'],
      [{ model: 'gemini/gemini-2.5-flash-image', prompt: 'x', n: 2 }, 'n'],
      [{ model: 'vertex/imagen-4.0-generate-001', prompt: 'x', n: 0 }, 'n'],
      [{ model: 'gemini/imagen-4.0-generate-001' }, 'prompt'],
    ];
    for (const [body, param] of cases) {
      const res = await s.inference.post('/v1/images/generations', body);
      expectInferenceError(res, 400, 'caller_invalid_request', { param });
    }
    expect(seen(s.sim)).toHaveLength(0);
  });

  it("a model that makes no images is Google's 400 relayed; image edits stay refused for gemini", async () => {
    const res = await s.inference.post('/v1/images/generations', { model: 'gemini/gemini-2.5-flash', prompt: 'x' });
    expect(res.status, res.text).toBe(400);
    expect(res.body.is_gateway_error).toBe(false);
    expect(res.body.error.message).toContain('response modalities');
    const form = new FormData();
    form.set('model', 'gemini/gemini-2.5-flash-image');
    form.set('prompt', 'x');
    form.set('image', new Blob([Buffer.from(SIM_PNG_BASE64, 'base64')], { type: 'image/png' }), 'a.png');
    const edit = await fetch(`${s.gw.baseUrl}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}` },
      body: form,
    });
    const body = (await edit.json()) as { extra_fields: { error_type: string }; error: { message: string } };
    expect(edit.status).toBe(400);
    expect(body.extra_fields.error_type).toBe('caller_invalid_request');
    expect(body.error.message).toContain('image_edit');
  });
});
