import OpenAI from 'openai';
import { expect } from 'vitest';
import type { HttpClient, HttpResult } from '../helpers/http.js';
import { startTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

export const SETUP_TOKEN = 'setup-token-123456';

/** Fast retries, so retry tests take milliseconds. */
export const FAST_NETWORK = {
  default_request_timeout: '5s',
  max_retries: 2,
  retry_backoff_initial: '20ms',
  retry_backoff_max: '200ms',
};

export interface InferenceStack {
  gw: TestApp;
  sim: Simulator;
  /** Management client (setup token). */
  admin: HttpClient;
  /** A virtual key's value. */
  vk: string;
  /** The official OpenAI SDK pointed at the gateway's /v1 with the virtual key, no SDK retries. */
  openai: OpenAI;
  /** Raw client with the virtual key. */
  inference: HttpClient;
  close(): Promise<void>;
}

export async function created(res: Promise<HttpResult>): Promise<any> {
  const r = await res;
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** The simulator's base path of each provider family set up with `addSimulatedProvider`. */
const SIMULATED_PATHS = { openai: '/openai/v1', anthropic: '/anthropic', gemini: '/gemini' } as const;

/** Points `provider` at the simulator (fast retries) and gives it the keys `{ name: value }`. */
export async function addSimulatedProvider(
  admin: HttpClient,
  sim: Simulator,
  provider: keyof typeof SIMULATED_PATHS,
  keys: Record<string, string>,
): Promise<void> {
  const base_url = `${sim.url}${SIMULATED_PATHS[provider]}`;
  await created(admin.post('/api/providers', { provider, base_url, network_config: FAST_NETWORK }));
  for (const [name, value] of Object.entries(keys)) {
    await created(admin.post(`/api/providers/${provider}/keys`, { name, value }));
  }
}

/**
 * A gateway and a provider simulator, with providers configured against the simulator: openai (keys `oa-1`, `oa-2`),
 * anthropic (`an-1`), gemini (`ge-1`) and azure (`az-1`, deployment `dep-4o` for `gpt-4o`); and a virtual key.
 */
export async function startInferenceStack(
  config: Record<string, unknown> = {},
  options: Omit<TestAppOptions, 'config'> = {},
): Promise<InferenceStack> {
  const sim = await startSimulator();
  const gw = await startTestApp({ ...options, config: { setup_token: SETUP_TOKEN, ...config } });
  const admin = gw.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
  await addSimulatedProvider(admin, sim, 'openai', { 'oa-1': 'sk-oa-1', 'oa-2': 'sk-oa-2' });
  await addSimulatedProvider(admin, sim, 'anthropic', { 'an-1': 'sk-ant-1' });
  await addSimulatedProvider(admin, sim, 'gemini', { 'ge-1': 'gem-key-1' });
  await created(admin.post('/api/providers', { provider: 'azure', network_config: FAST_NETWORK }));
  await created(
    admin.post('/api/providers/azure/keys', {
      name: 'az-1',
      value: 'az-key-1',
      azure_key_config: {
        endpoint: `${sim.url}/azure`,
        api_version: '2024-10-21',
        deployments: { 'gpt-4o': 'dep-4o' },
      },
    }),
  );
  const key = await created(admin.post('/api/governance/virtual-keys', { name: 'inference-tests' }));
  const vk = key.virtual_key.value as string;
  const openai = new OpenAI({ baseURL: `${gw.baseUrl}/v1`, apiKey: vk, maxRetries: 0, timeout: 20_000 });
  const inference = gw.http.withHeaders({ authorization: `Bearer ${vk}` });
  return {
    gw,
    sim,
    admin,
    vk,
    openai,
    inference,
    async close() {
      await gw.close();
      await sim.close();
    },
  };
}

/** The GatewayError body of a relayed or refused inference request. */
export function expectInferenceError(
  res: HttpResult,
  status: number,
  errorType: string,
  options: { code?: string; param?: string; isGatewayError?: boolean } = {},
): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.status_code).toBe(status);
  expect(res.body.extra_fields.error_type).toBe(errorType);
  if (options.code !== undefined) expect(res.body.error.code).toBe(options.code);
  if (options.param !== undefined) expect(res.body.error.param).toBe(options.param);
  if (options.isGatewayError !== undefined) expect(res.body.is_gateway_error).toBe(options.isGatewayError);
  expect(res.body.event_id).toBe(res.body.error.event_id);
}

/** Reads an SSE body into its messages. */
export function sseMessages(text: string): Array<{ event?: string; data: string }> {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const event = lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim();
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      return event ? { event, data } : { data };
    });
}

/** What the simulator received, loosely typed for assertions on translated bodies. */
export function seen(sim: Simulator, filter?: { family?: string }): any[] {
  return sim.requests(filter as never) as any[];
}
