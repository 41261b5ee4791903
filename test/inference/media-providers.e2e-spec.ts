import { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { RUNWARE_SIM_IMAGE_COST } from '../simulator/families/runware.js';
import { expectInferenceError, seen, startInferenceStack, type InferenceStack } from './inference-kit.js';
import { addProvider } from './more-providers-kit.js';

/** Bytes 0..255 twice: a file that any text decoding on the way would change. */
const AUDIO = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
const SIM_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Runware image tasks, Sarvam speech and transcription, Hugging Face text-to-image on the /v1 media routes. */
describe(`media providers: runware, sarvam, huggingface (${RUN_MODE})`, () => {
  let s: InferenceStack;

  beforeAll(async () => {
    s = await startInferenceStack();
    await addProvider(s, 'runware', `${s.sim.url}/runware/v1`, [{ name: 'rw-1', value: 'rw-key-1' }]);
    await addProvider(s, 'sarvam', `${s.sim.url}/sarvam/v1`, [{ name: 'sv-1', value: 'sarvam-key-1' }]);
    await addProvider(s, 'huggingface', `${s.sim.url}/huggingface/v1`, [{ name: 'hf-1', value: 'hf_token_1' }]);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  it('runware: images.generate as one imageInference task, URLs back, the cost header from runware', async () => {
    // Runware takes any multiple of 64; the SDK's type lists OpenAI's sizes only.
    const size = '512x768' as '512x512';
    const res = await s.openai.images
      .generate({ model: 'runware/runware:100@1', prompt: 'a red fox in snow', n: 2, size })
      .withResponse();
    expect(res.data.data).toHaveLength(2);
    expect(res.data.data![0]!.url).toMatch(/^https:\/\/im\.runware\.ai\/image\/ws\/2\/ii\/.+\.png$/);
    expect(res.data.data![0]!.b64_json).toBeUndefined();
    expect(Number(res.response.headers.get('x-gateway-cost-usd'))).toBeCloseTo(2 * RUNWARE_SIM_IMAGE_COST, 12);
    expect(res.response.headers.get('x-gateway-routing-info-provider')).toBe('runware');
    const [call] = seen(s.sim);
    expect(call.path).toBe('/runware/v1');
    expect(call.headers.authorization).toBe('Bearer rw-key-1');
    expect(Array.isArray(call.body)).toBe(true);
    expect(call.body).toHaveLength(1);
    expect(call.body[0]).toEqual({
      taskType: 'imageInference',
      taskUUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      positivePrompt: 'a red fox in snow',
      model: 'runware:100@1',
      width: 512,
      height: 768,
      numberResults: 2,
      outputType: 'URL',
      includeCost: true,
    });
  });

  it('runware: b64_json as base64Data, output_format and native task fields passed through', async () => {
    const res = await s.inference.post('/v1/images/generations', {
      model: 'runware/runware:100@1',
      prompt: 'a lighthouse',
      response_format: 'b64_json',
      output_format: 'webp',
      negativePrompt: 'blurry',
      steps: 4,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([{ b64_json: SIM_PNG_BASE64 }]);
    expect(typeof res.body.created).toBe('number');
    expect(Number(res.headers.get('x-gateway-cost-usd'))).toBeCloseTo(RUNWARE_SIM_IMAGE_COST, 12);
    const [call] = seen(s.sim);
    expect(call.body[0]).toMatchObject({
      outputType: 'base64Data',
      outputFormat: 'WEBP',
      negativePrompt: 'blurry',
      steps: 4,
      width: 1024,
      height: 1024,
      numberResults: 1,
    });
    expect(call.body[0].response_format).toBeUndefined();
  });

  it("runware: its error naming a parameter is a 400 whose param is the caller's field", async () => {
    const res = await s.inference.post('/v1/images/generations', {
      model: 'runware/runware:100@1',
      prompt: 'a cat',
      size: '500x500',
    });
    expectInferenceError(res, 400, 'caller_invalid_request', { param: 'size', isGatewayError: false });
    expect(res.body.error.code).toBe('invalidWidth');
    expect(res.body.error.message).toBe('Invalid value for width parameter.');
    const short = await s.inference.post('/v1/images/generations', { model: 'runware/runware:100@1', prompt: 'x' });
    expectInferenceError(short, 400, 'caller_invalid_request', { param: 'prompt', code: 'invalidPositivePrompt' });
    const bad = await s.inference.post('/v1/images/generations', {
      model: 'runware/runware:100@1',
      prompt: 'a cat',
      size: 'big',
    });
    expectInferenceError(bad, 400, 'caller_invalid_request', { param: 'size' });
    expect(seen(s.sim)).toHaveLength(2);
  });

  it('runware: speech is refused before any call', async () => {
    const res = await s.inference.post('/v1/audio/speech', { model: 'runware/x', voice: 'alloy', input: 'hi' });
    expectInferenceError(res, 400, 'caller_invalid_request', { code: 'unsupported_operation' });
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('sarvam speech: the native body with api-subscription-key, the base64 audio relayed as bytes', async () => {
    const res = await s.openai.audio.speech
      .create({ model: 'sarvam/bulbul:v2', voice: 'Anushka', input: 'namaste duniya', speed: 1.2 })
      .asResponse();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('x-gateway-routing-info-provider')).toBe('sarvam');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString()).toBe('WAVE');
    expect(bytes.subarray(12).toString()).toBe('SIMAUDIO:anushka:namaste duniya');
    const [call] = seen(s.sim);
    expect(call.path).toBe('/sarvam/text-to-speech');
    expect(call.headers['api-subscription-key']).toBe('sarvam-key-1');
    expect(call.headers.authorization).toBeUndefined();
    expect(call.body).toEqual({
      text: 'namaste duniya',
      target_language_code: 'en-IN',
      model: 'bulbul:v2',
      speaker: 'anushka',
      pace: 1.2,
    });
  });

  it('sarvam speech: mp3 as output_audio_codec, language as target_language_code', async () => {
    const res = await s.inference.post('/v1/audio/speech', {
      model: 'sarvam/bulbul:v2',
      voice: 'abhilash',
      input: 'kaise ho',
      response_format: 'mp3',
      language: 'hi-IN',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const [call] = seen(s.sim);
    expect(call.body).toMatchObject({ target_language_code: 'hi-IN', output_audio_codec: 'mp3' });
    const refused = await s.inference.post('/v1/audio/speech', {
      model: 'sarvam/bulbul:v2',
      voice: 'abhilash',
      input: 'x',
      response_format: 'aiff',
    });
    expectInferenceError(refused, 400, 'caller_invalid_request', { param: 'response_format' });
  });

  it('sarvam transcription: file, model and language_code as a form; the transcript as OpenAI JSON', async () => {
    const res = await s.openai.audio.transcriptions.create({
      model: 'sarvam/saarika:v2.5',
      file: await toFile(AUDIO, 'clip.wav', { type: 'audio/wav' }),
      language: 'ta-IN',
    });
    expect(res).toEqual({ text: 'transcript of clip.wav (512 bytes)', language: 'ta-IN' });
    const [call] = seen(s.sim);
    expect(call.path).toBe('/sarvam/speech-to-text');
    expect(call.headers['api-subscription-key']).toBe('sarvam-key-1');
    expect(call.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.body).toMatchObject({
      model: 'saarika:v2.5',
      language_code: 'ta-IN',
      file: { filename: 'clip.wav', content_type: 'audio/wav', size: 512 },
    });
    const detected = await s.openai.audio.transcriptions.create({
      model: 'sarvam/saarika:v2.5',
      file: await toFile(AUDIO, 'clip.wav', { type: 'audio/wav' }),
    });
    expect(detected).toMatchObject({ language: 'hi-IN' });
    expect(seen(s.sim)[1].body.language_code).toBe('unknown');
  });

  it('sarvam: a native error is relayed with its status and message', async () => {
    s.sim.scenario({
      match: { path: '/text-to-speech' },
      responses: [{ fault: 'error', status: 400, message: 'Invalid speaker' }],
    });
    const res = await s.inference.post('/v1/audio/speech', { model: 'sarvam/bulbul:v2', voice: 'zz', input: 'hi' });
    expectInferenceError(res, 400, 'caller_invalid_request', { code: 'invalid_request_error', isGatewayError: false });
    expect(res.body.error.message).toBe('Invalid speaker');
  });

  it('sarvam chat still goes to the OpenAI-compatible /v1/chat/completions with Bearer', async () => {
    const chat = await s.openai.chat.completions.create({
      model: 'sarvam/sarvam-m',
      messages: [{ role: 'user', content: 'hello sarvam' }],
    });
    expect(chat.choices[0]!.message.content).toBe('echo: hello sarvam');
    const [call] = seen(s.sim);
    expect(call.path).toBe('/sarvam/v1/chat/completions');
    expect(call.headers.authorization).toBe('Bearer sarvam-key-1');
  });

  it('huggingface text-to-image: {inputs, parameters} to the model, the image bytes as b64_json', async () => {
    const res = await s.openai.images
      .generate({ model: 'huggingface/black-forest-labs/FLUX.1-schnell', prompt: 'a blue bird', size: '512x512' })
      .withResponse();
    expect(res.response.headers.get('x-gateway-routing-info-provider')).toBe('huggingface');
    expect(res.data.data).toHaveLength(1);
    const image = Buffer.from(res.data.data![0]!.b64_json!, 'base64').toString();
    expect(image).toBe('SIMIMAGE:black-forest-labs/FLUX.1-schnell:512x512:a blue bird');
    const [call] = seen(s.sim);
    expect(call.path).toBe('/huggingface/hf-inference/models/black-forest-labs/FLUX.1-schnell');
    expect(call.headers.authorization).toBe('Bearer hf_token_1');
    expect(call.headers.accept).toBe('image/png');
    expect(call.body).toEqual({ inputs: 'a blue bird', parameters: { width: 512, height: 512 } });
  });

  it('huggingface text-to-image: n above 1 and url answers are refused before any call', async () => {
    const many = await s.inference.post('/v1/images/generations', {
      model: 'huggingface/black-forest-labs/FLUX.1-schnell',
      prompt: 'x',
      n: 2,
    });
    expectInferenceError(many, 400, 'caller_invalid_request', { param: 'n' });
    const url = await s.inference.post('/v1/images/generations', {
      model: 'huggingface/black-forest-labs/FLUX.1-schnell',
      prompt: 'x',
      response_format: 'url',
    });
    expectInferenceError(url, 400, 'caller_invalid_request', { param: 'response_format' });
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('openai image generation still answers JSON through the media answer path', async () => {
    const res = await s.openai.images.generate({ model: 'openai/gpt-image-1', prompt: 'a tree' });
    expect(res.data![0]!.b64_json).toBe(SIM_PNG_BASE64);
  });
});
