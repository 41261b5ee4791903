import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { embed, generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seen, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * The frameworks teams build on, pointed at the gateway's `/v1` as their docs say for any OpenAI-compatible server:
 * LangChain's `@langchain/openai` and the Vercel AI SDK's `@ai-sdk/openai` (chat completions and the Responses API,
 * unary and streamed, embeddings), with models of two providers. One app for the file.
 */
describe('interop: LangChain and the Vercel AI SDK on /v1', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
  });
  afterAll(() => s?.close());
  const upstream = () => seen(s.sim).at(-1);

  it('LangChain ChatOpenAI invoke and stream, OpenAIEmbeddings', async () => {
    const configuration = { baseURL: `${s.gw.baseUrl}/v1` };
    for (const [model, path] of [
      ['openai/gpt-4o-mini', '/openai/v1/chat/completions'],
      ['anthropic/claude-sonnet-4-5', '/anthropic/v1/messages'],
    ] as const) {
      const chat = new ChatOpenAI({ model, apiKey: s.vk, configuration, maxRetries: 0 });
      const answer = await chat.invoke('interop langchain');
      expect(answer.text).toContain('interop langchain');
      expect(answer.usage_metadata?.total_tokens).toBeGreaterThan(0);
      expect(upstream().path).toBe(path);
      let streamed = '';
      for await (const chunk of await chat.stream('langchain stream')) streamed += chunk.text;
      expect(streamed).toContain('langchain stream');
    }
    const embeddings = new OpenAIEmbeddings({ model: 'openai/text-embedding-3-small', apiKey: s.vk, configuration });
    const vectors = await embeddings.embedDocuments(['one', 'two']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]!.length).toBeGreaterThan(0);
  });

  it('Vercel AI SDK: generateText and streamText over chat completions and Responses, embed', async () => {
    const provider = createOpenAI({ baseURL: `${s.gw.baseUrl}/v1`, apiKey: s.vk });
    for (const [model, label] of [
      [provider.chat('openai/gpt-4o-mini'), 'chat'],
      [provider.responses('openai/gpt-4o-mini'), 'responses'],
      [provider.chat('anthropic/claude-sonnet-4-5'), 'chat to anthropic'],
    ] as const) {
      const generated = await generateText({ model, prompt: `interop vercel ${label}`, maxRetries: 0 });
      expect(generated.text, label).toContain(`interop vercel ${label}`);
      expect(generated.usage.totalTokens, label).toBeGreaterThan(0);
      const streamed = streamText({ model, prompt: `vercel stream ${label}`, maxRetries: 0 });
      let text = '';
      for await (const delta of streamed.textStream) text += delta;
      expect(text, label).toContain(`vercel stream ${label}`);
    }
    const embedded = await embed({
      model: provider.embedding('openai/text-embedding-3-small'),
      value: 'one',
      maxRetries: 0,
    });
    expect(embedded.embedding.length).toBeGreaterThan(0);
    expect(upstream().path).toBe('/openai/v1/embeddings');
  });
});
