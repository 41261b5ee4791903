import OpenAI, { APIError, NotFoundError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * The official openai SDK, unmodified, against both base URLs the README gives (`/v1`, `/openai/v1`): every SDK method
 * the gateway serves (docs/inference.md, "The OpenAI SDK's methods"), each call checked in what the SDK hands back and
 * in what the provider simulator received; and the methods the gateway does not serve answer 404, as the table says.
 * One app for the whole file.
 */
const AUDIO = Buffer.from(Array.from({ length: 256 }, (_, i) => i % 256));
/** A one-pixel PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Each base URL, with how it names an OpenAI model (a bare model is OpenAI's under `/openai` only). */
const BASES = [
  { base: '/v1', model: (m: string) => `openai/${m}` },
  { base: '/openai/v1', model: (m: string) => m },
] as const;

describe('interop: the openai SDK (every served method, both base URLs)', () => {
  let s: InferenceStack;
  const client = (base: string) =>
    new OpenAI({ baseURL: `${s.gw.baseUrl}${base}`, apiKey: s.vk, maxRetries: 0, timeout: 20_000 });
  const lastUpstream = () => seen(s.sim).at(-1);
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());

  for (const { base, model } of BASES) {
    describe(base, () => {
      it('chat.completions.create, unary and streamed with usage', async () => {
        const sdk = client(base);
        const unary = await sdk.chat.completions.create({
          model: model('gpt-4o-mini'),
          messages: [{ role: 'user', content: 'interop chat' }],
        });
        expect(unary.choices[0]!.message.content).toContain('interop chat');
        expect(unary.usage!.total_tokens).toBeGreaterThan(0);
        expect(lastUpstream()).toMatchObject({ path: '/openai/v1/chat/completions', body: { model: 'gpt-4o-mini' } });
        const stream = await sdk.chat.completions.create({
          model: model('gpt-4o-mini'),
          messages: [{ role: 'user', content: 'interop stream' }],
          stream: true,
          stream_options: { include_usage: true },
        });
        let text = '';
        let usage: OpenAI.CompletionUsage | null | undefined;
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta?.content ?? '';
          usage ??= chunk.usage;
        }
        expect(text).toContain('interop stream');
        expect(usage?.total_tokens).toBeGreaterThan(0);
      });

      it('completions.create', async () => {
        const completion = await client(base).completions.create({
          model: model('gpt-4o-mini'),
          prompt: 'interop completion',
        });
        expect(completion.object).toBe('text_completion');
        expect(completion.choices[0]!.text).toContain('interop completion');
        expect(lastUpstream().path).toBe('/openai/v1/completions');
      });

      it('responses.create, unary and streamed; responses.inputTokens.count', async () => {
        const sdk = client(base);
        const response = await sdk.responses.create({ model: model('gpt-4o-mini'), input: 'interop responses' });
        expect(response.output_text).toContain('interop responses');
        expect(lastUpstream().path).toBe('/openai/v1/responses');
        const stream = await sdk.responses.create({
          model: model('gpt-4o-mini'),
          input: 'interop responses stream',
          stream: true,
        });
        const types: string[] = [];
        let text = '';
        for await (const event of stream) {
          types.push(event.type);
          if (event.type === 'response.output_text.delta') text += event.delta;
        }
        expect(types[0]).toBe('response.created');
        expect(types.at(-1)).toBe('response.completed');
        expect(text).toContain('interop responses stream');
        const counted = await sdk.responses.inputTokens.count({
          model: model('gpt-4o-mini'),
          input: 'count these tokens',
        });
        expect(counted.object).toBe('response.input_tokens');
        expect(counted.input_tokens).toBeGreaterThan(0);
        expect(lastUpstream()).toMatchObject({
          path: '/openai/v1/responses/input_tokens',
          body: { model: 'gpt-4o-mini' },
        });
      });

      it('embeddings.create (the SDK asks for base64 and decodes it)', async () => {
        const embedded = await client(base).embeddings.create({
          model: model('text-embedding-3-small'),
          input: ['one', 'two'],
        });
        expect(embedded.data).toHaveLength(2);
        expect(embedded.data[1]!.embedding.length).toBeGreaterThan(0);
        expect(embedded.data[1]!.embedding.every((n) => Number.isFinite(n))).toBe(true);
      });

      it('models.list and models.retrieve (a `/` in the id, URL-encoded by the SDK)', async () => {
        const sdk = client(base);
        const ids: string[] = [];
        for await (const m of sdk.models.list()) ids.push(m.id);
        expect(ids).toEqual(expect.arrayContaining(['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5']));
        const one = await sdk.models.retrieve('openai/gpt-4o-mini');
        expect(one).toMatchObject({ id: 'openai/gpt-4o-mini', object: 'model', owned_by: 'system' });
        const other = await sdk.models.retrieve('anthropic/claude-sonnet-4-5');
        expect(other).toMatchObject({ id: 'anthropic/claude-sonnet-4-5', object: 'model' });
        const missing = await sdk.models.retrieve('openai/no-such-model').catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(NotFoundError);
        expect((missing as NotFoundError).error).toMatchObject({ code: 'model_not_found' });
        // A bare id: OpenAI's under /openai; under /v1 the one provider listing it (azure lists gpt-4o-mini too).
        if (base === '/openai/v1') {
          expect((await sdk.models.retrieve('gpt-4o-mini')).id).toBe('openai/gpt-4o-mini');
        } else {
          expect((await sdk.models.retrieve('claude-sonnet-4-5')).id).toBe('anthropic/claude-sonnet-4-5');
          const ambiguous = await sdk.models.retrieve('gpt-4o-mini').catch((e: unknown) => e);
          expect((ambiguous as NotFoundError).message).toContain('Several providers list the model gpt-4o-mini');
        }
      });

      it('audio.speech.create and audio.transcriptions.create (multipart)', async () => {
        const sdk = client(base);
        const speech = await sdk.audio.speech
          .create({ model: model('gpt-4o-mini-tts'), voice: 'alloy', input: 'interop speech', response_format: 'wav' })
          .asResponse();
        expect(speech.headers.get('content-type')).toBe('audio/wav');
        expect(Buffer.from(await speech.arrayBuffer()).toString()).toContain('SIMAUDIO:interop speech');
        const transcript = await sdk.audio.transcriptions.create({
          model: model('whisper-1'),
          file: await toFile(AUDIO, 'clip.wav', { type: 'audio/wav' }),
        });
        expect(transcript.text).toBe('transcript of clip.wav (256 bytes)');
        expect(lastUpstream()).toMatchObject({
          path: '/openai/v1/audio/transcriptions',
          body: { model: 'whisper-1', file: { filename: 'clip.wav', size: 256 } },
        });
      });

      it('images.generate, images.edit and images.createVariation (multipart)', async () => {
        const sdk = client(base);
        const generated = await sdk.images.generate({ model: model('gpt-image-1'), prompt: 'a gateway', n: 2 });
        expect(generated.data).toHaveLength(2);
        const edited = await sdk.images.edit({
          model: model('gpt-image-1'),
          image: await toFile(PNG, 'pixel.png', { type: 'image/png' }),
          prompt: 'add a hat',
        });
        expect(edited.data?.length).toBe(1);
        expect(lastUpstream()).toMatchObject({ path: '/openai/v1/images/edits', body: { prompt: 'add a hat' } });
        const variation = await sdk.images.createVariation({
          model: model('dall-e-2'),
          image: await toFile(PNG, 'pixel.png', { type: 'image/png' }),
        });
        expect(variation.data?.length).toBe(1);
        expect(lastUpstream().path).toBe('/openai/v1/images/variations');
      });
    });
  }

  /**
   * The methods docs/inference.md lists as not served (stored objects, files, batches, realtime, …), one per row of
   * its table: each is a 404 the SDK raises as NotFoundError (405 where the path is served for another method) on
   * both base URLs, never a provider call.
   */
  const NOT_SERVED: Array<[string, (sdk: OpenAI) => Promise<unknown>]> = [
    ['chat.completions.retrieve', (sdk) => sdk.chat.completions.retrieve('chatcmpl-1')],
    ['chat.completions.list', (sdk) => sdk.chat.completions.list()],
    ['responses.retrieve', (sdk) => sdk.responses.retrieve('resp_1')],
    ['responses.delete', (sdk) => sdk.responses.delete('resp_1')],
    ['responses.cancel', (sdk) => sdk.responses.cancel('resp_1')],
    ['responses.compact', (sdk) => sdk.responses.compact({ model: 'gpt-4o-mini', input: 'x' })],
    ['responses.inputItems.list', (sdk) => sdk.responses.inputItems.list('resp_1')],
    ['conversations.create', (sdk) => sdk.conversations.create({})],
    ['models.delete', (sdk) => sdk.models.delete('ft:gpt-4o-mini:org:x')],
    ['moderations.create', (sdk) => sdk.moderations.create({ input: 'x' })],
    [
      'audio.translations.create',
      async (sdk) =>
        sdk.audio.translations.create({
          model: 'whisper-1',
          file: await toFile(AUDIO, 'a.wav', { type: 'audio/wav' }),
        }),
    ],
    ['files.list', (sdk) => sdk.files.list()],
    [
      'uploads.create',
      (sdk) => sdk.uploads.create({ bytes: 1, filename: 'a', mime_type: 'text/plain', purpose: 'batch' }),
    ],
    ['batches.list', (sdk) => sdk.batches.list()],
    ['vectorStores.list', (sdk) => sdk.vectorStores.list()],
    ['videos.list', (sdk) => sdk.videos.list()],
    ['realtime.clientSecrets.create', (sdk) => sdk.realtime.clientSecrets.create({})],
    ['fineTuning.jobs.list', (sdk) => sdk.fineTuning.jobs.list()],
  ];

  it('the methods the gateway does not serve answer 404 (or 405) on both base URLs, reaching no provider', async () => {
    const before = seen(s.sim).length;
    const problems: string[] = [];
    for (const { base } of BASES) {
      for (const [name, call] of NOT_SERVED) {
        const err = await call(client(base)).then(
          () => undefined,
          (e: unknown) => e,
        );
        const refused = err instanceof NotFoundError || (err instanceof APIError && err.status === 405);
        if (!refused) problems.push(`${base} ${name}: ${String(err)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(seen(s.sim).length).toBe(before);
  });
});
