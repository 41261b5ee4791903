import { created, FAST_NETWORK, type InferenceStack } from './inference-kit.js';

/** Adds the cohere provider, against the simulator's cohere family, with one key (`co-key-1`). */
export async function addCohere(s: InferenceStack): Promise<void> {
  await created(
    s.admin.post('/api/providers', {
      provider: 'cohere',
      base_url: `${s.sim.url}/cohere`,
      network_config: FAST_NETWORK,
    }),
  );
  await created(s.admin.post('/api/providers/cohere/keys', { name: 'co-1', value: 'co-key-1' }));
}
