import { expect, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock/clock.js';
import type { ProviderId } from '../../src/modules/inference/providers/provider-ids.js';
import { PriceTable } from '../../src/modules/inference/pricing/price-table.js';
import type { Json } from '../../src/modules/inference/providers/shared/provider-adapter.js';
import { estimateTokens } from '../../src/modules/inference/routing/usage-estimate.js';
import type { HttpClient, HttpResult } from '../helpers/http.js';
import { created, startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';

/**
 * Budgets and rate limits through the public routes: governance objects created with the management API (issue 11
 * §1 shapes), requests through /v1 against the provider simulator, windows moved by a ManualClock.
 */

export interface GovernedStack extends InferenceStack {
  clock: ManualClock;
}

/** The inference stack (openai, anthropic, gemini, azure on the simulator) with a clock the test moves. */
export async function startGovernedStack(
  config: Record<string, unknown> = {},
  start: number = Date.now(),
): Promise<GovernedStack> {
  const clock = new ManualClock(start);
  const stack = await startInferenceStack(config, { clock });
  return Object.assign(stack, { clock });
}

export interface Budget {
  max_limit: number;
  reset_duration: string;
  calendar_aligned?: boolean;
}

export interface RateLimit {
  request_max_limit?: number;
  request_reset_duration?: string;
  token_max_limit?: number;
  token_reset_duration?: string;
}

export interface ProviderConfig {
  provider: string;
  weight?: number | null;
  allowed_models?: string[];
  blacklisted_models?: string[];
  key_ids?: string[];
  budgets?: Budget[];
  rate_limit?: RateLimit;
}

export interface KeyBody {
  name: string;
  budgets?: Budget[];
  rate_limit?: RateLimit;
  provider_configs?: ProviderConfig[];
  team_id?: string;
  customer_id?: string;
}

export interface GovernedKey {
  id: string;
  value: string;
  /** /v1 and the quota route with this key. */
  client: HttpClient;
}

export async function createKey(s: InferenceStack, body: KeyBody): Promise<GovernedKey> {
  const res = await created(s.admin.post('/api/governance/virtual-keys', body));
  const key = res.virtual_key as { id: string; value: string };
  return { id: key.id, value: key.value, client: s.gw.http.withHeaders({ authorization: `Bearer ${key.value}` }) };
}

export async function createTeam(
  s: InferenceStack,
  body: { name: string; budgets?: Budget[]; rate_limit?: RateLimit },
): Promise<string> {
  return ((await created(s.admin.post('/api/governance/teams', body))).team as { id: string }).id;
}

export async function createCustomer(
  s: InferenceStack,
  body: { name: string; budgets?: Budget[]; rate_limit?: RateLimit },
): Promise<string> {
  return ((await created(s.admin.post('/api/governance/customers', body))).customer as { id: string }).id;
}

/** Provider governance: budgets and a rate limit on every request to the provider. */
export async function governProvider(
  s: InferenceStack,
  provider: ProviderId,
  body: { budgets?: Budget[]; rate_limit?: RateLimit },
): Promise<void> {
  const res = await s.admin.put(`/api/governance/providers/${provider}`, body);
  expect(res.status, res.text).toBe(200);
}

export async function createModelConfig(
  s: InferenceStack,
  body: {
    model_name: string;
    provider?: string;
    scope: 'global' | 'virtual_key';
    scope_id?: string;
    budgets?: Budget[];
    rate_limit?: RateLimit;
  },
): Promise<string> {
  return ((await created(s.admin.post('/api/governance/model-configs', body))).model_config as { id: string }).id;
}

const prices = new PriceTable();

/**
 * A chat request whose real usage equals the gateway's estimate (the simulator is told to report exactly the input
 * and output tokens the estimate assumes), so a budget of N × `cost` admits exactly N requests and a token limit of
 * N × `tokens` likewise; `usage` is what the simulator should report. `extra` (fallbacks, …) is part of the body, so
 * of the estimate.
 */
export function exactChat(
  model = 'openai/gpt-4o-mini',
  maxTokens = 16,
  text = 'count me',
  extra: Json = {},
): { body: Json; cost: number; tokens: number; usage: { input_tokens: number; output_tokens: number } } {
  const body: Json = { model, messages: [{ role: 'user', content: text }], max_tokens: maxTokens, ...extra };
  const { input, output } = estimateTokens('chat', body);
  const slash = model.indexOf('/');
  const cost = prices.costOf(model.slice(0, slash) as ProviderId, model.slice(slash + 1), {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
  })?.total_cost;
  if (cost === undefined) throw new Error(`${model} has no price`);
  return { body, cost, tokens: input + output, usage: { input_tokens: input, output_tokens: output } };
}

/** Every simulator answer (of the family, or all) reports `usage`. */
export function answerWith(s: InferenceStack, usage: { input_tokens: number; output_tokens: number }, family?: string) {
  s.sim.scenario({
    match: family ? { family: family as never } : {},
    responses: [{ ok: true, usage }],
    repeat: true,
  });
}

export function chat(key: GovernedKey, body: Json): Promise<HttpResult> {
  return key.client.post('/v1/chat/completions', body);
}

/** A 402/403/429/503 GatewayError of governance. */
export function expectRefusal(res: HttpResult, status: number, code: string, errorType: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.is_gateway_error).toBe(true);
  expect(res.body.status_code).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.extra_fields.error_type).toBe(errorType);
}

export async function quota(key: GovernedKey): Promise<any> {
  const res = await key.client.get('/api/governance/virtual-keys/quota');
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/**
 * The quota once every reservation has settled: an answer is sent before its settlement (which is off the request
 * path), so a read right after it may still see the reservation.
 */
export function settledQuota(key: GovernedKey): Promise<any> {
  return vi.waitFor(
    async () => {
      const current = await quota(key);
      expect([...current.budgets, ...current.rate_limits].every((l: any) => !l.reserved)).toBe(true);
      return current;
    },
    { timeout: 5_000, interval: 20 },
  );
}

/** Requests the simulator received (the provider's count). */
export function upstreamCalls(s: InferenceStack): number {
  return s.sim.requests().length;
}
