// Access profile propagation at scale (issue 14 §4): 10,000 users holding a copy of one profile, then a propagation
// of all six fields after the template changed, on Postgres + Redis (BullMQ worker inside the gateway, role `all`).
// Seeding: bench/lib/propagation-seed.mjs. The propagate call answers 202 at once (propagation_wait 0s); the bench then
// follows the job through GET /api/governance/access-profiles/propagations/{job_id}, printing its progress, and checks
// the result: every user affected, none failed, no key sync error. Target: the job finishes in < 30 s.
//
// Usage: npm run build && node bench/access-profile-propagation.mjs [--users 10000] [--log-level warn]
// A scratch Postgres database and Redis prefix (BENCH_DATABASE_URL, BENCH_REDIS_URL; bench/lib/scale-out.mjs).
import { parseArgs } from 'node:util';
import { runBench } from './lib/cleanup.mjs';
import { manage, startGateway } from './lib/gateway.mjs';
import { PROPAGATION_FIELDS, seedPropagation } from './lib/propagation-seed.mjs';
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
const FIELDS = PROPAGATION_FIELDS;

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
    const seedStart = performance.now();
    const profile = await seedPropagation(gw, scratch.env.DATABASE_URL, { name: 'bench', users: USERS });
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
