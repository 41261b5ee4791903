// A template and `users` users holding a copy of it, for the propagation benches (bench/access-profile-propagation.mjs
// and the dashboard's, bench/dashboard-admin.mjs). Seeding is SQL on a scale-out database: users, copies and one
// managed key row each (the keys get their policy rows from the propagation, so every user is a full rewrite); then
// the template changes (what a template update does), so a propagation of every field touches every user.
import pg from 'pg';
import { manage } from './gateway.mjs';

export const PROPAGATION_FIELDS = [
  'provider_configs',
  'budgets',
  'rate_limit',
  'mcp_tool_groups',
  'mcp_servers',
  'mcp_tool_overrides',
];
const DEVELOPER_ROLE = '00000000-0000-4000-8000-000000000003';

const V1 = {
  provider_configs: [{ provider_name: 'openai', all_models_allowed: false, allowed_models: ['gpt-4o-mini'] }],
  budgets: [{ max_limit: 5, reset_duration: '1d' }],
  rate_limit: { request_max_limit: 100, request_reset_duration: '1h' },
};
const v2 = (toolGroupId) => ({
  provider_configs: [{ provider_name: 'openai' }, { provider_name: 'anthropic' }],
  budgets: [
    { max_limit: 9, reset_duration: '1d' },
    { max_limit: 3, reset_duration: '1w', scope: 'provider:anthropic' },
  ],
  rate_limit: {
    request_max_limit: 500,
    request_reset_duration: '1h',
    token_max_limit: 100000,
    token_reset_duration: '1d',
  },
  mcp_tool_groups: [{ tool_group_id: toolGroupId }],
  mcp_servers: [{ mcp_server_id: 'server-a' }],
  mcp_tool_overrides: [{ mcp_client_id: 'server-b', tool_name: 'search', action: 'include' }],
});

/**
 * Creates the template `name` through the API, seeds `users` holders of a copy in SQL and changes the template.
 * Returns the template's view.
 */
export async function seedPropagation(gw, databaseUrl, { name, users }) {
  const profile = (await manage(gw, 'POST', '/api/governance/access-profiles', { name, ...V1 })).access_profile;
  // A template names existing tool groups only (an empty one will do: the bench measures the rewrite, not the grant).
  const group = (await manage(gw, 'POST', '/api/mcp/tool-groups', { name: `${name}_tools` })).tool_group;
  const next = (await manage(gw, 'POST', '/api/governance/access-profiles', { name: `${name}-next`, ...v2(group.id) }))
    .access_profile;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO users (id, name, email, role_id)
       SELECT gen_random_uuid(), 'bench ' || i, 'bench-' || i || '@example.com', $2 FROM generate_series(1, $1::int) AS i`,
      [users, DEVELOPER_ROLE],
    );
    await db.query(
      `INSERT INTO access_profile_copies (user_id, parent_profile_id, name, provider_configs, budgets, rate_limit,
         calendar_aligned, mcp_tool_groups, mcp_servers, mcp_tool_overrides)
       SELECT u.id, p.id, p.name, p.provider_configs, p.budgets, p.rate_limit, p.calendar_aligned, p.mcp_tool_groups,
         p.mcp_servers, p.mcp_tool_overrides
       FROM users u CROSS JOIN access_profiles p WHERE p.id = $1 AND u.email LIKE 'bench-%'`,
      [profile.id],
    );
    await db.query(
      `INSERT INTO virtual_keys (id, name, access_profile_copy_id)
       SELECT gen_random_uuid(), 'bench key ' || c.id, c.id FROM access_profile_copies c WHERE c.parent_profile_id = $1`,
      [profile.id],
    );
    for (const column of PROPAGATION_FIELDS) {
      await db.query(
        `UPDATE access_profiles t SET "${column}" = s."${column}" FROM access_profiles s WHERE t.id = $1 AND s.id = $2`,
        [profile.id, next.id],
      );
    }
  } finally {
    await db.end();
  }
  return profile;
}
