import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  CountTokensCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  ListAsyncInvokesCommand,
} from '@aws-sdk/client-bedrock-runtime';
import { GoogleGenAI } from '@google/genai';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { CohereClientV2 } from 'cohere-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCohere } from '../inference/cohere-kit.js';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * The official @google/genai, AWS Bedrock runtime and cohere-ai clients, unmodified but for their base URL and key,
 * against `/genai`, `/bedrock` and `/cohere`: every method of theirs the gateway serves, once each with the format's
 * own provider and with another one behind it, and what it does not serve refused as the SDK expects a missing route
 * (404). The format suites (`test/formats/*-format.e2e-spec.ts`) hold the conversions in detail; this file keeps the
 * whole surface of each SDK in one run. One app for the file.
 */
describe('interop: @google/genai, the Bedrock runtime client, cohere-ai (every served method)', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
    await addCohere(s);
  });
  afterAll(() => s?.close());
  const upstream = () => seen(s.sim).at(-1);

  describe('@google/genai on /genai', () => {
    const genai = () => new GoogleGenAI({ apiKey: s.vk, httpOptions: { baseUrl: `${s.gw.baseUrl}/genai` } });

    it('models.generateContent, generateContentStream, embedContent, countTokens (Gemini and another provider)', async () => {
      const ai = genai();
      for (const [model, path] of [
        ['gemini-2.5-flash', '/gemini/v1beta/models/gemini-2.5-flash:generateContent'],
        ['openai/gpt-4o-mini', '/openai/v1/chat/completions'],
      ] as const) {
        const answer = await ai.models.generateContent({ model, contents: 'interop genai' });
        expect(answer.text).toContain('interop genai');
        expect(answer.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
        expect(upstream().path).toBe(path);
        let streamed = '';
        for await (const chunk of await ai.models.generateContentStream({ model, contents: 'genai stream' })) {
          streamed += chunk.text ?? '';
        }
        expect(streamed).toContain('genai stream');
        const counted = await ai.models.countTokens({ model, contents: 'count these four words' });
        expect(counted.totalTokens).toBeGreaterThan(0);
      }
      const embedded = await ai.models.embedContent({ model: 'text-embedding-004', contents: ['one', 'two'] });
      expect(embedded.embeddings).toHaveLength(2);
      const crossed = await ai.models.embedContent({ model: 'openai/text-embedding-3-small', contents: 'one' });
      expect(crossed.embeddings?.[0]?.values?.length).toBeGreaterThan(0);
      expect(upstream().path).toBe('/openai/v1/embeddings');
    });

    it('models.list and models.get; files, caches and batches answer 404', async () => {
      const ai = genai();
      const names: string[] = [];
      for await (const model of await ai.models.list()) names.push(model.name ?? '');
      expect(names).toEqual(expect.arrayContaining(['models/gemini-2.5-flash', 'models/openai/gpt-4o-mini']));
      expect((await ai.models.get({ model: 'gemini-2.5-flash' })).name).toBe('models/gemini-2.5-flash');
      const before = seen(s.sim).length;
      for (const call of [() => ai.files.list(), () => ai.caches.list(), () => ai.batches.list()]) {
        await expect(call()).rejects.toMatchObject({ status: 404 });
      }
      expect(seen(s.sim).length).toBe(before);
    });
  });

  describe('@aws-sdk/client-bedrock-runtime on /bedrock', () => {
    const bedrock = () =>
      new BedrockRuntimeClient({
        endpoint: `${s.gw.baseUrl}/bedrock`,
        region: 'us-east-1',
        token: { token: s.vk },
        authSchemePreference: ['httpBearerAuth'],
        maxAttempts: 1,
        requestHandler: new NodeHttpHandler(),
      });
    const claude = (text: string) =>
      JSON.stringify({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ type: 'text', text }] }],
      });

    it('Converse, ConverseStream, InvokeModel and InvokeModelWithResponseStream, served by OpenAI and Anthropic', async () => {
      const client = bedrock();
      for (const [modelId, path] of [
        ['openai/gpt-4o-mini', '/openai/v1/chat/completions'],
        ['anthropic/claude-sonnet-4-5', '/anthropic/v1/messages'],
      ] as const) {
        const messages = [{ role: 'user' as const, content: [{ text: 'interop converse' }] }];
        const converse = await client.send(new ConverseCommand({ modelId, messages }));
        expect(converse.output?.message?.content?.[0]?.text).toContain('interop converse');
        expect(converse.usage?.totalTokens).toBeGreaterThan(0);
        expect(upstream().path).toBe(path);
        const stream = await client.send(new ConverseStreamCommand({ modelId, messages }));
        let text = '';
        for await (const event of stream.stream!) text += event.contentBlockDelta?.delta?.text ?? '';
        expect(text).toContain('interop converse');
        const invoked = await client.send(new InvokeModelCommand({ modelId, body: claude('interop invoke') }));
        const answer = JSON.parse(new TextDecoder().decode(invoked.body));
        expect(answer).toMatchObject({
          type: 'message',
          content: [{ text: expect.stringContaining('interop invoke') }],
        });
        const chunks = await client.send(
          new InvokeModelWithResponseStreamCommand({ modelId, body: claude('interop invoke stream') }),
        );
        const types: string[] = [];
        for await (const part of chunks.body!) types.push(JSON.parse(new TextDecoder().decode(part.chunk!.bytes)).type);
        expect([types[0], types.at(-1)]).toEqual(['message_start', 'message_stop']);
      }
    });

    it('CountTokens and the async invocations answer 404', async () => {
      const client = bedrock();
      const before = seen(s.sim).length;
      await expect(
        client.send(
          new CountTokensCommand({
            modelId: 'openai/gpt-4o-mini',
            input: { invokeModel: { body: new TextEncoder().encode(claude('x')) } },
          }),
        ),
      ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
      await expect(client.send(new ListAsyncInvokesCommand({}))).rejects.toMatchObject({
        $metadata: { httpStatusCode: 404 },
      });
      expect(seen(s.sim).length).toBe(before);
    });
  });

  describe('cohere-ai on /cohere', () => {
    const cohere = () => new CohereClientV2({ token: s.vk, environment: `${s.gw.baseUrl}/cohere`, maxRetries: 0 });

    it('chat, chatStream, embed, rerank and models.list (Cohere and another provider)', async () => {
      const client = cohere();
      for (const model of ['command-r', 'openai/gpt-4o-mini']) {
        const chat = await client.chat({ model, messages: [{ role: 'user', content: 'interop cohere' }] });
        expect(chat.message.content?.[0]).toEqual({ type: 'text', text: 'echo: interop cohere' });
        let text = '';
        for await (const event of await client.chatStream({ model, messages: [{ role: 'user', content: 'stream' }] })) {
          if (event.type === 'content-delta') text += event.delta?.message?.content?.text ?? '';
        }
        expect(text).toBe('echo: stream');
      }
      const embedded = await client.embed({
        model: 'openai/text-embedding-3-small',
        texts: ['one', 'two'],
        inputType: 'search_document',
        embeddingTypes: ['float'],
      });
      expect(embedded.embeddings.float).toHaveLength(2);
      const ranked = await client.rerank({ model: 'rerank-v3.5', query: 'cats', documents: ['dogs', 'cats'], topN: 1 });
      expect(ranked.results).toEqual([{ index: 1, relevanceScore: 1 }]);
      expect(upstream().path).toBe('/cohere/v2/rerank');
      const listed = await client.models.list({ pageSize: 1000 });
      expect(listed.models.map((m) => m.name)).toEqual(expect.arrayContaining(['command-r', 'openai/gpt-4o-mini']));
    });
  });
});
