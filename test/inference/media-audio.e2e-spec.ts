import { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { simAudio } from '../simulator/families/openai-media.js';
import { expectInferenceError, seen, sseMessages, startInferenceStack, type InferenceStack } from './inference-kit.js';
import { addProvider } from './more-providers-kit.js';

/** Bytes 0..255 twice: a file that any text decoding on the way would change. */
const AUDIO = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

/** Mistral (Voxtral) transcriptions and OpenAI speech streamed as `stream_format: "sse"` events, on /v1. */
describe(`media audio: mistral transcription, speech streaming (${RUN_MODE})`, () => {
  let s: InferenceStack;

  beforeAll(async () => {
    s = await startInferenceStack();
    await addProvider(s, 'mistral', `${s.sim.url}/mistral/v1`, [{ name: 'mi-1', value: 'mistral-key-1' }]);
    await addProvider(s, 'elevenlabs', `${s.sim.url}/elevenlabs`, [{ name: 'el-1', value: 'xi-key-1' }]);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  function postForm(path: string, fields: Record<string, string | Blob>): Promise<Response> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, 'clip.wav');
    }
    return fetch(`${s.gw.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}` },
      body: form,
    });
  }

  it('mistral transcription: the SDK gets the text and a tokens usage; the audio goes through byte for byte', async () => {
    const res = await s.openai.audio.transcriptions
      .create({
        model: 'mistral/voxtral-mini-latest',
        file: await toFile(AUDIO, 'clip.wav', { type: 'audio/wav' }),
        language: 'en',
      })
      .withResponse();
    expect(res.response.headers.get('x-gateway-routing-info-provider')).toBe('mistral');
    const text = 'transcript of clip.wav (512 bytes)';
    // Mistral: prompt 4, completion 5 words, total 4 + 52 audio + 5; the audio tokens are input.
    expect(res.data).toMatchObject({
      text,
      usage: {
        type: 'tokens',
        input_tokens: 56,
        input_token_details: { text_tokens: 4, audio_tokens: 52 },
        output_tokens: 5,
        total_tokens: 61,
      },
    });
    const [call] = seen(s.sim);
    expect(call.path).toBe('/mistral/v1/audio/transcriptions');
    expect(call.headers.authorization).toBe('Bearer mistral-key-1');
    expect(call.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.body).toEqual({
      model: 'voxtral-mini-latest',
      language: 'en',
      file: expect.objectContaining({ filename: 'clip.wav', content_type: 'audio/wav', size: 512 }),
    });
    const row = (await s.admin.get(`/api/logs/${res.response.headers.get('x-request-id')}`)).body;
    expect(row).toMatchObject({
      object: 'transcription',
      provider: 'mistral',
      model: 'voxtral-mini-latest',
      status_code: 200,
      token_usage: { prompt_tokens: 56, completion_tokens: 5, total_tokens: 61 },
      output_message: { text },
    });
  });

  it('mistral transcription as verbose_json: language, duration and segments; response_format never sent', async () => {
    const res = await postForm('/v1/audio/transcriptions', {
      model: 'mistral/voxtral-mini-latest',
      file: new Blob([AUDIO], { type: 'audio/wav' }),
      response_format: 'verbose_json',
      language: 'fr',
      timestamp_granularities: 'segment',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      task: 'transcribe',
      language: 'fr',
      duration: 2,
      text: 'transcript of clip.wav (512 bytes)',
      segments: [{ id: 0, start: 0, end: 2, text: 'transcript of clip.wav (512 bytes)' }],
    });
    const [call] = seen(s.sim);
    expect(call.body.response_format).toBeUndefined();
    expect(call.body.timestamp_granularities).toBe('segment');
  });

  it('mistral transcription in a format Mistral cannot give is a 400 naming response_format, nothing sent', async () => {
    for (const format of ['text', 'srt', 'vtt']) {
      const res = await postForm('/v1/audio/transcriptions', {
        model: 'mistral/voxtral-mini-latest',
        file: new Blob([AUDIO], { type: 'audio/wav' }),
        response_format: format,
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { param: string }; extra_fields: { error_type: string } };
      expect(body.error.param).toBe('response_format');
      expect(body.extra_fields.error_type).toBe('caller_invalid_request');
    }
    expect(seen(s.sim)).toHaveLength(0);
  });

  it("mistral's own 422 (an unknown form field) is relayed as a 422", async () => {
    const res = await postForm('/v1/audio/transcriptions', {
      model: 'mistral/voxtral-mini-latest',
      file: new Blob([AUDIO], { type: 'audio/wav' }),
      prompt: 'names: Voxtral',
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { is_gateway_error: boolean; extra_fields: { error_type: string } };
    expect(body.is_gateway_error).toBe(false);
    expect(body.extra_fields.error_type).toBe('caller_invalid_request');
  });

  it('openai speech with stream_format sse: the delta events relayed as they come, then done with the usage', async () => {
    const input = 'stream this sentence please';
    const res = await fetch(`${s.gw.baseUrl}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini-tts', voice: 'alloy', input, stream_format: 'sse' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('openai');
    const raw = await res.text();
    expect(raw).not.toContain('[DONE]');
    expect(raw).not.toContain('event:');
    const events = sseMessages(raw).map((m) => JSON.parse(m.data) as Record<string, any>);
    const deltas = events.filter((e) => e.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(1);
    const audio = Buffer.concat(deltas.map((d) => Buffer.from(d.audio as string, 'base64')));
    expect(audio.toString('latin1')).toBe(simAudio(input));
    const done = events.at(-1)!;
    expect(done.type).toBe('speech.audio.done');
    expect(done.usage).toEqual({ input_tokens: 4, output_tokens: audio.length, total_tokens: 4 + audio.length });
    const [call] = seen(s.sim);
    expect(call.path).toBe('/openai/v1/audio/speech');
    expect(call.body).toMatchObject({ model: 'gpt-4o-mini-tts', input, stream_format: 'sse' });
    const row = (await s.admin.get(`/api/logs/${res.headers.get('x-request-id')}`)).body;
    expect(row).toMatchObject({ object: 'speech', provider: 'openai', status_code: 200, stream: true });
    expect(row.token_usage).toMatchObject({ prompt_tokens: 4, completion_tokens: audio.length });
    expect(JSON.stringify(row)).not.toContain(deltas[0]!.audio as string);
  });

  it('the openai SDK reads the streamed speech events', async () => {
    const response = await s.openai.audio.speech.create({
      model: 'openai/gpt-4o-mini-tts',
      voice: 'alloy',
      input: 'hello sdk',
      stream_format: 'sse',
    });
    const events = sseMessages(await response.text()).map((m) => JSON.parse(m.data) as { type: string });
    expect(events.at(-1)?.type).toBe('speech.audio.done');
    expect(events.filter((e) => e.type === 'speech.audio.delta').length).toBeGreaterThan(0);
  });

  it('speech streaming on a provider that cannot stream it is a 400 naming stream_format, nothing sent', async () => {
    const res = await s.inference.post('/v1/audio/speech', {
      model: 'elevenlabs/eleven_multilingual_v2',
      voice: 'JBFqnCBsd6RMkjVDRZzb',
      input: 'no stream here',
      stream_format: 'sse',
    });
    expectInferenceError(res, 400, 'caller_invalid_request', { param: 'stream_format' });
    expect(res.body.error.message).toContain('elevenlabs');
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('a bad stream_format, or stream: true, is a 400 naming the field', async () => {
    const bad = await s.inference.post('/v1/audio/speech', {
      model: 'openai/gpt-4o-mini-tts',
      voice: 'alloy',
      input: 'x',
      stream_format: 'websocket',
    });
    expectInferenceError(bad, 400, 'caller_invalid_request', { param: 'stream_format' });
    const streamFlag = await s.inference.post('/v1/audio/speech', {
      model: 'openai/gpt-4o-mini-tts',
      voice: 'alloy',
      input: 'x',
      stream: true,
    });
    expectInferenceError(streamFlag, 400, 'caller_invalid_request', { param: 'stream' });
    expect(seen(s.sim)).toHaveLength(0);
  });

  it("openai's refusal to stream tts-1 is relayed as its 400", async () => {
    const res = await s.inference.post('/v1/audio/speech', {
      model: 'openai/tts-1',
      voice: 'alloy',
      input: 'x',
      stream_format: 'sse',
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.is_gateway_error).toBe(false);
    expect(res.body.error.param).toBe('stream_format');
  });

  it('stream_format audio is the plain audio answer', async () => {
    const res = await fetch(`${s.gw.baseUrl}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/tts-1', voice: 'alloy', input: 'plain', stream_format: 'audio' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer()).toString('latin1')).toBe(simAudio('plain'));
  });

  it("ElevenLabs' models (a bare JSON array) are listed on /api/models and /v1/models", async () => {
    const api = await s.admin.get('/api/models', { query: { provider: 'elevenlabs' } });
    expect(api.status, api.text).toBe(200);
    expect(api.body.key_statuses).toEqual([expect.objectContaining({ provider: 'elevenlabs', status: 'success' })]);
    expect(api.body.models).toEqual([
      { id: 'elevenlabs/eleven_multilingual_v2', provider: 'elevenlabs', owned_by: 'elevenlabs' },
      { id: 'elevenlabs/eleven_flash_v2_5', provider: 'elevenlabs', owned_by: 'elevenlabs' },
      { id: 'elevenlabs/scribe_v1', provider: 'elevenlabs', owned_by: 'elevenlabs' },
    ]);
    const call = seen(s.sim).find((c) => c.path === '/elevenlabs/v1/models');
    expect(call.method).toBe('GET');
    expect(call.headers['xi-api-key']).toBe('xi-key-1');

    const v1 = await s.openai.models.list();
    const eleven = v1.data.filter((m) => m.id.startsWith('elevenlabs/'));
    expect(eleven.map((m) => m.id)).toEqual([
      'elevenlabs/eleven_multilingual_v2',
      'elevenlabs/eleven_flash_v2_5',
      'elevenlabs/scribe_v1',
    ]);
    expect(eleven[0]).toMatchObject({ object: 'model', owned_by: 'elevenlabs' });
  });
});
