import { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  created,
  expectInferenceError,
  FAST_NETWORK,
  seen,
  startInferenceStack,
  type InferenceStack,
} from './inference-kit.js';

/** Bytes 0..255 twice: a file that any text decoding on the way would change (its size would differ). */
const AUDIO = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
/** A one-pixel PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The unified media endpoints (issue 15): speech, transcriptions, images and OCR over every provider serving them. */
describe(`media endpoints on /v1 (${RUN_MODE})`, () => {
  let s: InferenceStack;

  /** A multipart request sent by hand (fields and files as the caller chooses). */
  function postForm(path: string, fields: Record<string, string | Blob>, filename = 'clip.wav'): Promise<Response> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, filename);
    }
    return fetch(`${s.gw.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}` },
      body: form,
    });
  }

  beforeAll(async () => {
    s = await startInferenceStack();
    await created(
      s.admin.post('/api/providers', {
        provider: 'elevenlabs',
        base_url: `${s.sim.url}/elevenlabs`,
        network_config: FAST_NETWORK,
      }),
    );
    await created(s.admin.post('/api/providers/elevenlabs/keys', { name: 'el-1', value: 'xi-key-1' }));
    await created(
      s.admin.post('/api/providers', {
        provider: 'mistral',
        base_url: `${s.sim.url}/openai/v1`,
        network_config: FAST_NETWORK,
      }),
    );
    await created(s.admin.post('/api/providers/mistral/keys', { name: 'mi-1', value: 'mistral-key-1' }));
    await created(
      s.admin.post('/api/providers', {
        provider: 'groq',
        base_url: `${s.sim.url}/openai/v1`,
        network_config: FAST_NETWORK,
      }),
    );
    await created(s.admin.post('/api/providers/groq/keys', { name: 'gq-1', value: 'gsk-1' }));
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('speech: the audio bytes and content-type relayed, the body sent as OpenAI takes it', async () => {
    const res = await s.openai.audio.speech
      .create({ model: 'openai/gpt-4o-mini-tts', voice: 'alloy', input: 'hello there', response_format: 'wav' })
      .asResponse();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 3).toString()).toBe('ID3');
    expect(bytes.toString()).toContain('SIMAUDIO:hello there');
    const [call] = seen(s.sim);
    expect(call.path).toBe('/openai/v1/audio/speech');
    expect(call.body).toEqual({
      model: 'gpt-4o-mini-tts',
      voice: 'alloy',
      input: 'hello there',
      response_format: 'wav',
    });
    expect(call.headers.accept).toBe('*/*');
  });

  it('transcription: a real file upload reaches the provider byte for byte; json and text answers', async () => {
    const file = await toFile(AUDIO, 'clip.wav', { type: 'audio/wav' });
    const json = await s.openai.audio.transcriptions.create({
      model: 'openai/gpt-4o-transcribe',
      file,
      language: 'en',
    });
    expect(json.text).toBe('transcript of clip.wav (512 bytes)');
    expect((json as any).usage).toMatchObject({ type: 'tokens', input_tokens: 52 });
    const [call] = seen(s.sim);
    expect(call.path).toBe('/openai/v1/audio/transcriptions');
    expect(call.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.body).toMatchObject({
      model: 'gpt-4o-transcribe',
      language: 'en',
      file: { filename: 'clip.wav', content_type: 'audio/wav', size: 512 },
    });
    const text = await s.openai.audio.transcriptions.create({
      model: 'openai/whisper-1',
      file: await toFile(AUDIO, 'clip.wav', { type: 'audio/wav' }),
      response_format: 'text',
    });
    expect(text).toBe('transcript of clip.wav (512 bytes)\n');
  });

  it('groq serves transcriptions from its table entry; its speech is refused before any call', async () => {
    const res = await s.openai.audio.transcriptions.create({
      model: 'groq/whisper-large-v3',
      file: await toFile(AUDIO, 'clip.wav', { type: 'audio/wav' }),
    });
    expect(res.text).toBe('transcript of clip.wav (512 bytes)');
    expect(seen(s.sim)[0]).toMatchObject({ path: '/openai/v1/audio/transcriptions', key: 'gsk-1' });
    const speech = await s.inference.post('/v1/audio/speech', { model: 'groq/playai-tts', voice: 'x', input: 'hi' });
    expectInferenceError(speech, 400, 'caller_invalid_request', { code: 'unsupported_operation', param: 'model' });
    const image = await s.inference.post('/v1/images/generations', { model: 'anthropic/claude-x', prompt: 'p' });
    expectInferenceError(image, 400, 'caller_invalid_request', { code: 'unsupported_operation' });
    expect(image.body.error.message).toContain('image_generation');
    expect(seen(s.sim)).toHaveLength(1);
  });

  it('images: generate, edit (multipart image) and variation', async () => {
    const generated = await s.openai.images.generate({ model: 'openai/gpt-image-1', prompt: 'a red fox', n: 2 });
    expect(generated.data).toHaveLength(2);
    expect(Buffer.from(generated.data![0]!.b64_json!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(generated.usage).toMatchObject({ input_tokens: 3, output_tokens: 544 });

    const edited = await s.openai.images.edit({
      model: 'openai/gpt-image-1',
      image: await toFile(PNG, 'fox.png', { type: 'image/png' }),
      prompt: 'add a hat',
    });
    expect(edited.data![0]!.revised_prompt).toBe(`edits of fox.png (${PNG.length} bytes): add a hat`);

    const variation = await s.openai.images.createVariation({
      model: 'openai/dall-e-2',
      image: await toFile(PNG, 'fox.png', { type: 'image/png' }),
      response_format: 'url',
    });
    expect(variation.data![0]!.url).toMatch(/^https:\/\/sim\.invalid\/images\//);
    const calls = seen(s.sim);
    expect(calls.map((c) => c.path)).toEqual([
      '/openai/v1/images/generations',
      '/openai/v1/images/edits',
      '/openai/v1/images/variations',
    ]);
    expect(calls[1].body).toMatchObject({ model: 'gpt-image-1', prompt: 'add a hat', image: { size: PNG.length } });
  });

  it("ocr: Mistral's shape in and out", async () => {
    const res = await s.inference.post('/v1/ocr', {
      model: 'mistral/mistral-ocr-latest',
      document: { type: 'document_url', document_url: 'https://example.com/paper.pdf' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      model: 'mistral-ocr-latest',
      pages: [{ index: 0, markdown: '# OCR of https://example.com/paper.pdf' }],
      usage_info: { pages_processed: 1 },
    });
    const [call] = seen(s.sim);
    expect(call.path).toBe('/openai/v1/ocr');
    expect(call.key).toBe('mistral-key-1');
    expect(call.body.document).toEqual({ type: 'document_url', document_url: 'https://example.com/paper.pdf' });
  });

  it('elevenlabs speech: voice as the path, response_format as output_format, xi-api-key', async () => {
    const res = await s.openai.audio.speech
      .create({ model: 'elevenlabs/eleven_multilingual_v2', voice: 'JBFqnCBsd6RMkjVDRZzb', input: 'bonjour' })
      .asResponse();
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer()).toString()).toContain('SIMAUDIO:JBFqnCBsd6RMkjVDRZzb:bonjour');
    const [call] = seen(s.sim);
    expect(call.path).toBe('/elevenlabs/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb');
    expect(call.query).toEqual({ output_format: 'mp3_44100_128' });
    expect(call.headers['xi-api-key']).toBe('xi-key-1');
    expect(call.body).toEqual({ text: 'bonjour', model_id: 'eleven_multilingual_v2' });
  });

  it('elevenlabs transcription: model_id and file as a form, the answer in OpenAI shape', async () => {
    const res = await s.openai.audio.transcriptions.create({
      model: 'elevenlabs/scribe_v1',
      file: await toFile(AUDIO, 'voice.mp3', { type: 'audio/mpeg' }),
      response_format: 'verbose_json',
    });
    expect(res.text).toBe('transcript of voice.mp3 (512 bytes)');
    expect(res).toMatchObject({ language: 'eng', duration: 2.4 });
    expect(res.words![0]).toEqual({ word: 'transcript', start: 0, end: 0.4 });
    const [call] = seen(s.sim);
    expect(call.path).toBe('/elevenlabs/v1/speech-to-text');
    expect(call.body).toMatchObject({ model_id: 'scribe_v1', file: { filename: 'voice.mp3', size: 512 } });
    expect(call.body.model).toBeUndefined();
  });

  it('azure speech goes to its deployment path', async () => {
    const res = await s.openai.audio.speech
      .create({ model: 'azure/tts-1', voice: 'nova', input: 'from azure' })
      .asResponse();
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const [call] = seen(s.sim);
    expect(call.path).toBe('/azure/openai/deployments/tts-1/audio/speech');
    expect(call.query['api-version']).toBe('2024-10-21');
    expect(call.headers['api-key']).toBe('az-key-1');
  });

  it('a provider that cannot serve the request type: 400 caller_invalid_request naming it', async () => {
    const res = await s.inference.post('/v1/audio/speech', {
      model: 'anthropic/claude-3-5-haiku-latest',
      voice: 'alloy',
      input: 'hi',
    });
    expectInferenceError(res, 400, 'caller_invalid_request', { code: 'unsupported_operation', param: 'model' });
    expect(res.body.error.message).toContain('speech');
    const ocr = await s.inference.post('/v1/ocr', {
      model: 'openai/gpt-4o',
      document: { type: 'image_url', image_url: 'https://example.com/a.png' },
    });
    expectInferenceError(ocr, 400, 'caller_invalid_request', { code: 'unsupported_operation' });
    expect(ocr.body.error.message).toContain('ocr');
    expect(seen(s.sim)).toEqual([]);
  });

  it('bad multipart input is a 400 naming the field', async () => {
    const noFile = await postForm('/v1/audio/transcriptions', { model: 'openai/whisper-1' });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as any).error.param).toBe('file');
    const noModel = await postForm('/v1/audio/transcriptions', { file: new Blob([AUDIO]) });
    expect(((await noModel.json()) as any).error.param).toBe('model');
    const badFormat = await postForm('/v1/audio/transcriptions', {
      model: 'openai/whisper-1',
      file: new Blob([AUDIO]),
      response_format: 'mp4',
    });
    expect(badFormat.status).toBe(400);
    expect(((await badFormat.json()) as any).error.param).toBe('response_format');
    const json = await s.inference.post('/v1/audio/transcriptions', { model: 'openai/whisper-1' });
    expect(json.status).toBe(415);
    expect(seen(s.sim)).toEqual([]);
  });

  it('a 429 is retried', async () => {
    s.sim.scenario({ match: { family: 'openai', path: '/audio/speech' }, responses: [{ fault: 'rate_limit' }] });
    const res = await s.inference.post('/v1/audio/speech', { model: 'openai/tts-1', voice: 'alloy', input: 'again' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(seen(s.sim).map((c) => c.status)).toEqual([429, 200]);
  });

  it('speech falls back from one provider to another', async () => {
    s.sim.scenario({ match: { family: 'elevenlabs' }, responses: [{ fault: 'error', status: 500 }], repeat: true });
    const res = await s.inference.post('/v1/audio/speech', {
      model: 'elevenlabs/eleven_multilingual_v2',
      fallbacks: ['openai/tts-1'],
      voice: 'alloy',
      input: 'fall back',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-gateway-fallback-index')).toBe('1');
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    const calls = seen(s.sim);
    expect(calls.at(-1)).toMatchObject({
      path: '/openai/v1/audio/speech',
      body: { model: 'tts-1', input: 'fall back' },
    });
    expect(calls.filter((c) => c.family === 'elevenlabs').length).toBeGreaterThan(0);
  });

  it('the log row of a transcription keeps a summary of the file, never its bytes', async () => {
    const marker = Buffer.from('UNIQUE-AUDIO-MARKER-'.repeat(20));
    const res = await postForm('/v1/audio/transcriptions', {
      model: 'openai/gpt-4o-transcribe',
      file: new Blob([marker], { type: 'audio/wav' }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id')!;
    const row = (await s.admin.get(`/api/logs/${id}`)).body;
    expect(row).toMatchObject({
      object: 'transcription',
      provider: 'openai',
      model: 'gpt-4o-transcribe',
      status_code: 200,
      input_history: { file: { filename: 'clip.wav', content_type: 'audio/wav', bytes: marker.length } },
      output_message: { text: `transcript of clip.wav (${marker.length} bytes)` },
    });
    expect(JSON.stringify(row)).not.toContain('UNIQUE-AUDIO-MARKER');
  });
});
