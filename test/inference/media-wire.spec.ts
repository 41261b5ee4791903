import { describe, expect, it } from 'vitest';
import { inputOf, outputOf } from '../../src/modules/inference/logs/log-content.js';
import {
  encodeMultipartForm,
  formFieldsOf,
  parseMultipartForm,
} from '../../src/modules/inference/media/multipart-form.js';
import { UploadedFile } from '../../src/modules/inference/media/uploaded-file.js';
import { adapterFor } from '../../src/modules/inference/providers/registry.js';
import { elevenLabsAdapter } from '../../src/modules/inference/providers/elevenlabs/elevenlabs.adapter.js';
import type { ProviderTarget } from '../../src/modules/inference/providers/shared/provider-adapter.js';

const BYTES = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256));

const target = (model: string): ProviderTarget => ({
  provider: 'elevenlabs',
  baseUrl: 'https://api.elevenlabs.io',
  extraHeaders: {},
  key: { id: 'k', name: 'k', value: 'xi-secret' },
  model,
});

describe('multipart forms', () => {
  it('what the gateway encodes, undici reads back: fields, repeated fields and files byte for byte', async () => {
    const file = new UploadedFile('a "b".wav', 'audio/wav', BYTES);
    const { body, contentType } = encodeMultipartForm(
      formFieldsOf({ model: 'whisper-1', file, fallbacks: ['openai/a', 'openai/b'], n: 2, skip: undefined }),
    );
    const parsed = await parseMultipartForm(body, contentType);
    expect(parsed.model).toBe('whisper-1');
    expect(parsed.n).toBe('2');
    expect(parsed.fallbacks).toEqual(['openai/a', 'openai/b']);
    expect(parsed).not.toHaveProperty('skip');
    const back = parsed.file as UploadedFile;
    expect(back).toBeInstanceOf(UploadedFile);
    expect(back.filename).toBe('a "b".wav');
    expect(back.contentType).toBe('audio/wav');
    expect(back.bytes.equals(BYTES)).toBe(true);
  });

  it('image[] is a list; a single fallbacks field is a list; stream is a boolean', async () => {
    const form = new FormData();
    form.append('image[]', new Blob([BYTES], { type: 'image/png' }), 'one.png');
    form.append('image[]', new Blob([BYTES], { type: 'image/png' }), 'two.png');
    form.append('fallbacks', 'openai/dall-e-2');
    form.append('stream', 'false');
    const request = new Request('http://x', { method: 'POST', body: form });
    const bytes = Buffer.from(await request.arrayBuffer());
    const parsed = await parseMultipartForm(bytes, request.headers.get('content-type')!);
    expect((parsed.image as UploadedFile[]).map((f) => f.filename)).toEqual(['one.png', 'two.png']);
    expect(parsed.fallbacks).toEqual(['openai/dall-e-2']);
    expect(parsed.stream).toBe(false);
  });

  it('an unreadable body is a 400 on body', async () => {
    await expect(parseMultipartForm(Buffer.from('nope'), 'multipart/form-data; boundary=x')).rejects.toMatchObject({
      status: 400,
      param: 'body',
    });
  });

  it('a file serialises to its summary, so logs never hold bytes', () => {
    const body = { model: 'm', file: new UploadedFile('x.wav', 'audio/wav', BYTES) };
    expect(JSON.parse(JSON.stringify(body))).toEqual({
      model: 'm',
      file: { filename: 'x.wav', content_type: 'audio/wav', bytes: 300 },
    });
    expect(inputOf('transcription', body)).toMatchObject({
      input: { file: { bytes: 300 } },
      params: null,
      summary: 'x.wav',
    });
  });

  it('image answers are logged as counts and sizes, never base64', () => {
    const logged = outputOf('image_generation', { data: [{ b64_json: 'QUJD', revised_prompt: 'p' }] });
    expect(logged.output).toEqual({
      object: 'images_summary',
      count: 1,
      images: [{ b64_json_chars: 4, revised_prompt: 'p' }],
    });
  });
});

describe('elevenlabs adapter', () => {
  it('speech: unknown response formats and a missing voice are 400s naming the field', () => {
    expect(() =>
      elevenLabsAdapter.buildRequest('speech', { input: 'x', voice: 'v', response_format: 'aac' }, target('m'), false),
    ).toThrow(expect.objectContaining({ status: 400, param: 'response_format' }));
    expect(() => elevenLabsAdapter.buildRequest('speech', { input: 'x' }, target('m'), false)).toThrow(
      expect.objectContaining({ param: 'voice' }),
    );
  });

  it('speech: speed goes into voice_settings; pcm is 24 kHz', () => {
    const call = elevenLabsAdapter.buildRequest(
      'speech',
      { model: 'eleven_turbo_v2_5', input: 'hi', voice: 'v 1', response_format: 'pcm', speed: 1.2 },
      target('eleven_turbo_v2_5'),
      false,
    );
    expect(call.url).toBe('https://api.elevenlabs.io/v1/text-to-speech/v%201?output_format=pcm_24000');
    expect(JSON.parse(call.body!)).toEqual({
      text: 'hi',
      model_id: 'eleven_turbo_v2_5',
      voice_settings: { speed: 1.2 },
    });
    expect(call.headers['xi-api-key']).toBe('xi-secret');
  });

  it('errors: detail objects, strings and FastAPI lists', () => {
    const limited = elevenLabsAdapter.parseError(
      429,
      { 'retry-after': '2' },
      JSON.stringify({ detail: { status: 'too_many_concurrent_requests', message: 'slow down' } }),
    );
    expect(limited).toMatchObject({
      status: 429,
      message: 'slow down',
      code: 'too_many_concurrent_requests',
      reason: 'provider_rate_limited',
      retryAfterMs: 2000,
    });
    const missing = elevenLabsAdapter.parseError(
      422,
      {},
      JSON.stringify({ detail: [{ loc: ['body', 'text'], msg: 'Field required' }] }),
    );
    expect(missing).toMatchObject({ message: 'Field required', param: 'text', reason: 'caller_invalid_request' });
    expect(elevenLabsAdapter.parseError(500, {}, '').message).toBe('elevenlabs answered HTTP 500');
  });
});

describe('openai-family media calls', () => {
  const openaiTarget: ProviderTarget = {
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    extraHeaders: {},
    key: { id: 'k', name: 'k', value: 'sk-1' },
    model: 'gpt-image-1',
  };

  it('an image edit is a form with image[] for several images, model set, stream flags dropped', async () => {
    const image = (name: string) => new UploadedFile(name, 'image/png', BYTES);
    const call = adapterFor('openai')!.buildRequest(
      'image_edit',
      { model: 'x', prompt: 'hat', image: [image('a.png'), image('b.png')], stream: false },
      openaiTarget,
      false,
    );
    expect(call.url).toBe('https://api.openai.com/v1/images/edits');
    expect(call.body).toBeUndefined();
    const form = await parseMultipartForm(call.binaryBody!, call.headers['content-type']!);
    expect(form.model).toBe('gpt-image-1');
    expect(form).not.toHaveProperty('stream');
    expect((form.image as UploadedFile[]).map((f) => f.filename)).toEqual(['a.png', 'b.png']);
  });

  it('a speech answer that is audio is relayed as bytes, logged as a summary', () => {
    const bytes = Buffer.from('ID3 audio');
    const parsed = adapterFor('openai')!.parseMediaResponse!(
      'speech',
      { contentType: 'audio/mpeg', bytes },
      openaiTarget,
    );
    expect(parsed.binary).toEqual({ contentType: 'audio/mpeg', bytes });
    expect(parsed.body).toEqual({ object: 'binary', content_type: 'audio/mpeg', bytes: 9 });
  });

  it('a transcript that is not a JSON object is a 502', () => {
    expect(() =>
      adapterFor('openai')!.parseMediaResponse!(
        'transcription',
        { contentType: 'application/json', bytes: Buffer.from('[1]') },
        openaiTarget,
      ),
    ).toThrow(expect.objectContaining({ status: 502 }));
  });
});
