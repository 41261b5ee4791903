import { expect } from 'vitest';
import { created, FAST_NETWORK, type InferenceStack } from './inference-kit.js';

/** Adds a provider pointing at the simulator and its keys (each `{ name, value?, ...key fields }`). */
export async function addProvider(
  s: InferenceStack,
  provider: string,
  baseUrl: string,
  keys: Array<Record<string, unknown>>,
): Promise<void> {
  await created(s.admin.post('/api/providers', { provider, base_url: baseUrl, network_config: FAST_NETWORK }));
  for (const key of keys) await created(s.admin.post(`/api/providers/${provider}/keys`, key));
}

/** Request options pinning a provider key by name (keys of one provider are otherwise picked by weight). */
export const pinned = (key: string) => ({ headers: { 'x-gateway-api-key': key } });

/** The text of an OpenAI chat stream from the SDK, and its final usage. */
export async function readChatStream(
  stream: AsyncIterable<{ choices: Array<{ delta?: { content?: string | null } }>; usage?: unknown }>,
): Promise<{ text: string; usage: { total_tokens: number } | undefined }> {
  let text = '';
  let usage: { total_tokens: number } | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    if (chunk.usage) usage = chunk.usage as { total_tokens: number };
  }
  return { text, usage };
}

/** Waits until `probe` holds (config changes reach the request path through a snapshot rebuild). */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    expect(Date.now(), 'condition not reached in time').toBeLessThan(end);
    await new Promise((r) => setTimeout(r, 50));
  }
}
