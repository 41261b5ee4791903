// Access profile propagation at scale (issue 14 §4): 10,000 users holding a copy of one profile, then a propagation
// of all six fields after the template changed, on Postgres + Redis (BullMQ worker inside the gateway, role `all`).
// Seeding is SQL (users, copies and one managed key row each; the keys get their policy rows from the propagation,
// so every user is a full rewrite). The propagate call answers 202 at once (propagation_wait 0s); the bench then
// follows the job through GET /api/governance/access-profiles/propagations/{job_id}, printing its progress, and checks
// the result: every user affected, none failed, no key sync error. Target: the job finishes in < 30 s.
//
// Usage: npm run build && node bench/access-profile-propagation.mjs [--users 10000] [--log-level warn]
// A scratch Postgres database and Redis prefix (BENCH_DATABASE_URL, BENCH_REDIS_URL; bench/lib/scale-out.mjs).
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runBench } from './lib/cleanup.mjs';
import { manage, startGateway } from './lib/gateway.mjs';
import { machineLine } from './lib/report.mjs';
import { createScratchScaleOut } from './lib/scale-out.mjs';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    'log-level': { type: 'string', default: 'warn' },
  },
});
const USERS = Number(values.users);
const TARGET_S = 30;
const FIELDS = ['provider_configs', 'budgets', 'rate_limit', 'mcp_tool_groups', 'mcp_servers', 'mcp_tool_overrides'];
const DEVELOPER_ROLE = '00000000-0000-4000-8000-000000000003';

const V1 = {
  provider_configs: [{ provider_name: 'openai', all_models_allowed: false, allowed_models: ['gpt-4o-mini'] }],
  budgets: [{ max_limit: 5, reset_duration: '1d' }],
  rate_limit: { request_max_limit: 100, request_reset_duration: '1h' },
};
const V2 = {
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
  mcp_tool_groups: [{ tool_group_id: 'group-a' }],
  mcp_servers: [{ mcp_server_id: 'server-a' }],
  mcp_tool_overrides: [{ mcp_client_id: 'server-b', tool_name: 'search', action: 'include' }],
};

async function seed(db, profileId, nextId) {
  await db.query(
    `INSERT INTO users (id, name, email, role_id)
     SELECT gen_random_uuid(), 'bench ' || i, 'bench-' || i || '@example.com', $2 FROM generate_series(1, $1::int) AS i`,
    [USERS, DEVELOPER_ROLE],
  );
  await db.query(
    `INSERT INTO access_profile_copies (user_id, parent_profile_id, name, provider_configs, budgets, rate_limit,
       calendar_aligned, mcp_tool_groups, mcp_servers, mcp_tool_overrides)
     SELECT u.id, p.id, p.name, p.provider_configs, p.budgets, p.rate_limit, p.calendar_aligned, p.mcp_tool_groups,
       p.mcp_servers, p.mcp_tool_overrides
     FROM users u CROSS JOIN access_profiles p WHERE p.id = $1 AND u.email LIKE 'bench-%'`,
    [profileId],
  );
  await db.query(
    `INSERT INTO virtual_keys (id, name, access_profile_copy_id)
     SELECT gen_random_uuid(), 'bench key ' || c.id, c.id FROM access_profile_copies c WHERE c.parent_profile_id = $1`,
    [profileId],
  );
  // The template changes after the users got their copies (what a template update does).
  for (const column of FIELDS) {
    await db.query(
      `UPDATE access_profiles t SET "${column}" = s."${column}" FROM access_profiles s WHERE t.id = $1 AND s.id = $2`,
      [profileId, nextId],
    );
  }
}

await runBench(
  async () => {
    console.log(machineLine());
    const scratch = await createScratchScaleOut();
    const gw = await startGateway({
      env: {
        ...scratch.env,
        GATEWAY_EDITION: 'enterprise',
        GATEWAY_ACCESS_PROFILES_PROPAGATION_WAIT: '0s',
        GATEWAY_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      },
      logLevel: values['log-level'],
    });
    const profile = (await manage(gw, 'POST', '/api/governance/access-profiles', { name: 'bench', ...V1 }))
      .access_profile;
    const next = (await manage(gw, 'POST', '/api/governance/access-profiles', { name: 'bench-next', ...V2 }))
      .access_profile;
    const db = new pg.Client({ connectionString: scratch.env.DATABASE_URL });
    await db.connect();
    const seedStart = performance.now();
    try {
      await seed(db, profile.id, next.id);
    } finally {
      await db.end();
    }
    console.log(
      `seeded ${USERS} users with copies and managed keys in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const started = performance.now();
    const { job_id } = await manage(
      gw,
      'POST',
      `/api/governance/access-profiles/${profile.id}/propagate`,
      { fields: FIELDS },
      [202],
    );
    let status;
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      status = await manage(gw, 'GET', `/api/governance/access-profiles/propagations/${job_id}`);
      const s = (performance.now() - started) / 1000;
      console.log(
        `  ${s.toFixed(1).padStart(5)} s  ${status.status}  ${status.processed}/${status.total}` +
          `  (${(status.processed / s).toFixed(0)} users/s)`,
      );
      if (status.status !== 'running') break;
    }
    const seconds = (Date.parse(status.finished_at) - Date.parse(status.created_at)) / 1000;
    const r = status.result;
    if (status.status !== 'completed' || r.affected_users !== USERS || r.failed_users || r.vk_sync_errors.length) {
      throw new Error(
        `unexpected outcome: ${JSON.stringify({ ...status, result: { ...r, user_ids: r?.user_ids.length } })}`,
      );
    }
    console.log(
      `propagation of ${FIELDS.length} fields to ${USERS} users: ${seconds.toFixed(1)} s job time ` +
        `(${(USERS / seconds).toFixed(0)} users/s), affected ${r.affected_users}, failed ${r.failed_users}, ` +
        `skipped ${r.skipped_users}; target < ${TARGET_S} s: ${seconds < TARGET_S ? 'met' : 'MISSED'}`,
    );
    await gw.stop();
    await scratch.drop();
  },
  { maxSeconds: 600 },
);
