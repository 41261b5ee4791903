import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDER_IDS, type ProviderId } from '../../src/modules/inference/providers/provider-ids.js';
import { OpenAiCompatibleAdapter } from '../../src/modules/inference/providers/openai/openai-compatible.adapter.js';
import { OPENAI_COMPATIBLE_PROFILES } from '../../src/modules/inference/providers/openai/openai-compatible.table.js';
import { INBOUND_FORMATS } from '../../src/modules/inference/providers/provider-descriptor.js';
import {
  adapterFor,
  keyValueOptional,
  nativeProviderOf,
  otelNameOf,
  PROVIDERS,
} from '../../src/modules/inference/providers/registry.js';
import { FAST_NETWORK, created, seen, startInferenceStack, type InferenceStack } from './inference-kit.js';

const PROVIDERS_DIR = join(import.meta.dirname, '..', '..', 'src', 'modules', 'inference', 'providers');

/** The providers whose whole definition is a descriptor and an OpenAI dialect profile (no adapter class of their own). */
const PROFILE_ONLY = PROVIDER_IDS.filter((id) => PROVIDERS[id].adapter?.constructor === OpenAiCompatibleAdapter);

/**
 * The registry (src/modules/inference/providers/registry.ts) is the one table of providers: the contract's ids in
 * their order, each with its family folder, adapter, price id, trace name and key rules. The provider matrix below is
 * read from it, so a provider added as one descriptor of an existing family is proved end to end without a new test.
 */
describe('the provider registry', () => {
  it('has one descriptor per provider id of the contract, in the order of the ProviderId enum', () => {
    expect(Object.keys(PROVIDERS)).toEqual([...PROVIDER_IDS]);
  });

  it('places every provider in a family folder that exists', () => {
    for (const id of PROVIDER_IDS) {
      expect(existsSync(join(PROVIDERS_DIR, PROVIDERS[id].family)), `${id}: ${PROVIDERS[id].family}/`).toBe(true);
    }
  });

  it('gives every OpenAI dialect profile a descriptor of the openai family, and derives the tables from it', () => {
    for (const id of Object.keys(OPENAI_COMPATIBLE_PROFILES) as ProviderId[]) {
      expect(PROVIDERS[id].family, id).toBe('openai');
      expect(adapterFor(id), id).toBe(PROVIDERS[id].adapter);
    }
    expect(PROFILE_ONLY).toContain('groq');
    expect(PROFILE_ONLY).not.toContain('mistral'); // an adapter class of its own (OCR, transcription)
    expect(otelNameOf('azure')).toBe('azure.ai.openai');
    expect(otelNameOf('wafer')).toBe('wafer');
    expect(otelNameOf('not-a-provider')).toBe('not-a-provider');
    expect(PROVIDER_IDS.filter(keyValueOptional)).toEqual(['ollama', 'sgl', 'vllm']);
  });

  it("reads each inbound format's native provider (a bare model's provider) off the descriptors", () => {
    expect(Object.fromEntries(INBOUND_FORMATS.map((format) => [format, nativeProviderOf(format)]))).toEqual({
      openai: 'openai',
      azure: 'azure',
      anthropic: 'anthropic',
      genai: 'gemini',
      bedrock: 'bedrock',
      cohere: 'cohere',
    });
  });

  describe('every profile-only provider answers a chat completion through the simulator', () => {
    let s: InferenceStack;
    beforeAll(async () => {
      s = await startInferenceStack();
      for (const provider of PROFILE_ONLY.filter((id) => id !== 'openai')) {
        // Self-hosted profiles append `/v1` to a base that lacks it; the others take the base as given.
        const suffix = OPENAI_COMPATIBLE_PROFILES[provider]!.requiredPrefix ? '' : '/v1';
        await created(
          s.admin.post('/api/providers', {
            provider,
            base_url: `${s.sim.url}/openai${suffix}`,
            network_config: FAST_NETWORK,
          }),
        );
        await created(
          s.admin.post(`/api/providers/${provider}/keys`, { name: `${provider}-1`, value: `sk-${provider}` }),
        );
      }
    });
    afterAll(() => s?.close());
    beforeEach(() => s.sim.reset());

    for (const provider of PROFILE_ONLY.filter((id) => OPENAI_COMPATIBLE_PROFILES[id]!.kinds.includes('chat'))) {
      it(`${provider}/gpt-4o-mini`, async () => {
        const res = await s.inference.post('/v1/chat/completions', {
          model: `${provider}/gpt-4o-mini`,
          messages: [{ role: 'user', content: `hello ${provider}` }],
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body.choices[0].message.content).toBe(`echo: hello ${provider}`);
        expect(res.headers.get('x-gateway-routing-info-provider')).toBe(provider);
        const [call] = seen(s.sim);
        expect(call.path).toBe('/openai/v1/chat/completions');
        // openai is the stack's own provider, with its two keys.
        const keys = provider === 'openai' ? ['sk-oa-1', 'sk-oa-2'] : [`sk-${provider}`];
        expect(keys).toContain(call.key);
      });
    }
  });
});
