import Anthropic, { NotFoundError } from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * The official @anthropic-ai/sdk, unmodified, against `/anthropic` (and a framework prefix): every method the gateway
 * serves, with the key as `apiKey` (x-api-key) and as `authToken` (Bearer), each call checked in what the SDK hands
 * back and what the provider simulator received; the methods it does not serve answer 404. One app for the file.
 */
describe('interop: the @anthropic-ai/sdk (every served method)', () => {
  let s: InferenceStack;
  const user = (content: string) => [{ role: 'user' as const, content }];
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());

  const clients = {
    apiKey: (base: string) => new Anthropic({ baseURL: `${s.gw.baseUrl}${base}`, apiKey: s.vk, maxRetries: 0 }),
    authToken: (base: string) =>
      new Anthropic({ baseURL: `${s.gw.baseUrl}${base}`, apiKey: null, authToken: s.vk, maxRetries: 0 }),
  };

  for (const [credential, client] of Object.entries(clients)) {
    for (const base of ['/anthropic', '/langchain/anthropic']) {
      it(`${base} with ${credential}: messages.create, messages.stream, messages.countTokens`, async () => {
        const sdk = client(base);
        const message = await sdk.messages.create({
          model: 'claude-sonnet-4-5',
          max_tokens: 64,
          messages: user('interop message'),
        });
        expect(message.type).toBe('message');
        expect(message.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('interop message') });
        expect(message.usage.input_tokens).toBeGreaterThan(0);
        const upstream = seen(s.sim).at(-1);
        expect(upstream).toMatchObject({ path: '/anthropic/v1/messages', body: { model: 'claude-sonnet-4-5' } });
        // Another provider behind the same SDK call.
        const crossed = await sdk.messages.create({
          model: 'openai/gpt-4o-mini',
          max_tokens: 64,
          messages: user('to openai'),
        });
        expect(crossed.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('to openai') });
        expect(seen(s.sim).at(-1).path).toBe('/openai/v1/chat/completions');

        const stream = sdk.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: user('streamed') });
        const types: string[] = [];
        stream.on('streamEvent', (event) => types.push(event.type));
        const final = await stream.finalMessage();
        expect(types[0]).toBe('message_start');
        expect(types.at(-1)).toBe('message_stop');
        expect(final.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('streamed') });
        expect(final.usage.output_tokens).toBeGreaterThan(0);

        const counted = await sdk.messages.countTokens({ model: 'claude-sonnet-4-5', messages: user('count me') });
        expect(counted.input_tokens).toBeGreaterThan(0);
        expect(seen(s.sim).at(-1).path).toBe('/anthropic/v1/messages/count_tokens');
      });
    }
  }

  it('models.list and models.retrieve (a `/` in another provider’s id)', async () => {
    const sdk = clients.apiKey('/anthropic');
    const ids: string[] = [];
    for await (const model of sdk.models.list({ limit: 1000 })) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['claude-sonnet-4-5', 'openai/gpt-4o-mini']));
    expect(await sdk.models.retrieve('claude-sonnet-4-5')).toMatchObject({ type: 'model', id: 'claude-sonnet-4-5' });
    expect(await sdk.models.retrieve('openai/gpt-4o-mini')).toMatchObject({ id: 'openai/gpt-4o-mini' });
    await expect(sdk.models.retrieve('claude-none')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('the methods the gateway does not serve answer 404, reaching no provider', async () => {
    const sdk = clients.apiKey('/anthropic');
    const before = seen(s.sim).length;
    const calls: Array<[string, () => Promise<unknown>]> = [
      [
        'messages.batches.create',
        () =>
          sdk.messages.batches.create({
            requests: [{ custom_id: 'a', params: { model: 'claude-sonnet-4-5', max_tokens: 8, messages: user('x') } }],
          }),
      ],
      ['messages.batches.list', () => sdk.messages.batches.list()],
      ['beta.files.list', () => sdk.beta.files.list()],
    ];
    const problems: string[] = [];
    for (const [name, call] of calls) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!(err instanceof NotFoundError)) problems.push(`${name}: ${String(err)}`);
    }
    expect(problems).toEqual([]);
    expect(seen(s.sim).length).toBe(before);
  });
});
