// A virtual key governed at three levels, for the benches that measure the governed path (governance, compare).
import { manage } from './gateway.mjs';

/** Far above what a run spends: the governed path does all its work and never refuses. */
const BUDGETS = [{ max_limit: 1_000_000, reset_duration: '1d' }];
const RATE_LIMIT = {
  request_max_limit: 100_000_000,
  request_reset_duration: '1h',
  token_max_limit: 100_000_000_000,
  token_reset_duration: '1h',
};

/**
 * A key covered by budgets and limits at three levels: its provider config for openai, the key itself, its team (a
 * team's customers are enterprise links; a key has a team or a customer, not both). Resolves the key's value.
 */
export async function createGovernedKey(gw, name = 'bench-governed') {
  const team = await manage(gw, 'POST', '/api/governance/teams', {
    name: `${name}-team`,
    budgets: BUDGETS,
    rate_limit: RATE_LIMIT,
  });
  const key = await manage(gw, 'POST', '/api/governance/virtual-keys', {
    name,
    team_id: team.team.id,
    budgets: BUDGETS,
    rate_limit: RATE_LIMIT,
    provider_configs: [
      {
        provider: 'openai',
        weight: 1,
        allowed_models: ['*'],
        key_ids: ['*'],
        budgets: BUDGETS,
        rate_limit: RATE_LIMIT,
      },
    ],
  });
  return key.virtual_key.value;
}
