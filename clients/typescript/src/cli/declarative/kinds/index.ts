import type { Kind, KindName } from '../kind.js';
import { customers, modelConfigs, pricingOverrides, routingRules, teams, virtualKeys } from './governance.js';
import { accessProfiles, circuitBreakers, mcpClients, plugins, runtimeConfig, webhooks } from './others.js';
import { providerGovernance, providerKeys, providers } from './providers.js';

/** Every kind in dependency order: creates and updates run in this order, deletes in the reverse. */
export const KINDS: readonly Kind[] = [
  runtimeConfig,
  plugins,
  providers,
  providerKeys,
  providerGovernance,
  customers,
  teams,
  mcpClients,
  virtualKeys,
  modelConfigs,
  routingRules,
  pricingOverrides,
  accessProfiles,
  circuitBreakers,
  webhooks,
];

export const kindOf = (name: KindName): Kind => KINDS.find((k) => k.name === name)!;

/** The kinds whose names a kind's file form shows (read with it, to turn ids into names). */
export const NAMES_FROM: Partial<Record<KindName, readonly KindName[]>> = {
  teams: ['customers'],
  virtual_keys: ['teams', 'customers', 'provider_keys', 'mcp_clients'],
  routing_rules: ['teams', 'customers', 'virtual_keys', 'provider_keys'],
  model_configs: ['virtual_keys'],
  pricing_overrides: ['virtual_keys', 'provider_keys'],
  access_profiles: ['mcp_clients'],
  circuit_breakers: ['provider_keys'],
  provider_keys: ['providers'],
  provider_governance: ['providers'],
};

/** Kinds a select-ed file may hold: what a team owns. */
export const TEAM_OWNED: readonly KindName[] = [
  'teams',
  'virtual_keys',
  'routing_rules',
  'model_configs',
  'pricing_overrides',
];
