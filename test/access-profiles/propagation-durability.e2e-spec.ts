import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, spawnGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import type { HttpClient } from '../helpers/http.js';
import { runModeEnv, startSpawned, type SpawnedGateway } from '../helpers/spawned-gateway.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { SETUP_TOKEN } from '../inference/inference-kit.js';
import { createProfile, createToolGroup } from './access-profiles-kit.js';
import {
  adoptFields,
  pollStatus,
  propagate,
  seedCopies,
  seedUsers,
  SIX_FIELDS,
  type Query,
} from './propagation-kit.js';
import { migratedAppDir } from '../helpers/databases.js';

const USERS = 2000;
/** Users whose copies already carry the new fields: skipped by both runs. */
const ALREADY_CURRENT = 50;

/**
 * Issue 14 §4: a propagation over 2,000 users whose worker process is killed with SIGKILL mid-job completes after a
 * restart with the same counts as an uninterrupted run, and every copy is updated exactly once. Real processes
 * (`node dist/src/main.js --role api` and `--role worker`) on one Postgres and Redis: only the scale-out mode has a
 * durable queue and a worker apart from the API (the embedded queue lives and dies with its process). Needs
 * `npm run build`.
 */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL || !existsSync(MAIN_JS))(
  'propagation survives a killed worker (scale-out)',
  () => {
    let api: SpawnedGateway;
    let worker: GatewayProcess;
    let env: Record<string, string>;
    let cleanUp: () => Promise<void>;
    let db: pg.Client;
    let query: Query;
    let admin: HttpClient;

    async function startWorker(): Promise<GatewayProcess> {
      const gw = spawnGateway(['--role', 'worker', '--app-dir', migratedAppDir(env, 'gw-worker-')], env);
      await gw.waitForLine(/gateway worker started/, 60_000);
      return gw;
    }

    beforeAll(async () => {
      const mode = await runModeEnv();
      cleanUp = mode.cleanUp;
      env = {
        ...mode.env,
        GATEWAY_EDITION: 'enterprise',
        GATEWAY_SETUP_TOKEN: SETUP_TOKEN,
        // Answer 202 at once: the test follows the job through its status.
        GATEWAY_ACCESS_PROFILES_PROPAGATION_WAIT: '0s',
      };
      api = await startSpawned(env, { args: ['--role', 'api'] });
      worker = await startWorker();
      admin = api.http.withHeaders({ 'x-gateway-setup-token': SETUP_TOKEN });
      db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      query = async (text, params) => (await db.query(text, params)).rows;
    }, 120_000);

    afterAll(async () => {
      for (const gw of [api?.gw, worker]) if (gw && gw.child.exitCode === null) gw.child.kill('SIGTERM');
      await Promise.all([api?.gw.exit, worker?.exit]);
      await db?.end();
      await cleanUp?.();
    });

    it('completes after a SIGKILL and a restart with the counts of an uninterrupted run, each copy updated once', async () => {
      const v1 = {
        provider_configs: [{ provider_name: 'openai', all_models_allowed: false, allowed_models: ['gpt-4o-mini'] }],
        budgets: [{ max_limit: 5, reset_duration: '1d' }],
        rate_limit: { request_max_limit: 100, request_reset_duration: '1h' },
      };
      const v2 = {
        provider_configs: [{ provider_name: 'openai' }, { provider_name: 'anthropic' }],
        budgets: [
          { max_limit: 9, reset_duration: '1d' },
          { max_limit: 3, reset_duration: '1w', scope: 'provider:anthropic' },
        ],
        rate_limit: { request_max_limit: 500, request_reset_duration: '1h' },
        mcp_servers: [{ mcp_server_id: 'server-a' }],
        mcp_tool_overrides: [{ mcp_client_id: 'server-b', tool_name: 'search', action: 'include' }],
        mcp_tool_groups: [{ tool_group_id: await createToolGroup(admin, 'group_a') }],
      };
      // The same users hold a copy of two identical profiles: one is propagated without interruption, the other not.
      const steady = await createProfile(admin, { name: 'steady', ...v1 });
      const interrupted = await createProfile(admin, { name: 'interrupted', ...v1 });
      const next = await createProfile(admin, { name: 'next', ...v2 });
      const users = await seedUsers(query, USERS, 'durable');
      await seedCopies(query, steady.id, 'durable');
      await seedCopies(query, interrupted.id, 'durable');
      const current = users.slice(0, ALREADY_CURRENT);
      for (const column of SIX_FIELDS) {
        await query(
          `UPDATE access_profile_copies c SET "${column}" = s."${column}" FROM access_profiles s
           WHERE s.id = $1 AND c.user_id = ANY($2::uuid[])`,
          [next.id, current],
        );
      }
      for (const p of [steady, interrupted]) await adoptFields(query, p.id, next.id, SIX_FIELDS);
      // Counts committed updates per copy (a rolled-back one leaves no count), and slows each a little so the kill
      // lands mid-job.
      await query('CREATE TABLE test_copy_updates (copy_id integer PRIMARY KEY, n integer NOT NULL)');
      await query(`CREATE FUNCTION test_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO test_copy_updates VALUES (NEW.id, 1)
            ON CONFLICT (copy_id) DO UPDATE SET n = test_copy_updates.n + 1;
          PERFORM pg_sleep(0.004);
          RETURN NEW;
        END $$`);
      await query(`CREATE TRIGGER test_count_update AFTER UPDATE ON access_profile_copies
        FOR EACH ROW EXECUTE FUNCTION test_count_update()`);

      const run = async (profileId: number) => {
        const res = await propagate(admin, profileId, { fields: [...SIX_FIELDS] });
        expect(res.status, res.text).toBe(202);
        return res.body.job_id as string;
      };
      const steadyJob = await run(steady.id);
      const steadyDone = await pollStatus(admin, steadyJob, (st) => st.status !== 'running', 120_000);
      expect(steadyDone).toMatchObject({ status: 'completed', processed: USERS, total: USERS });
      expect(steadyDone.result).toMatchObject({
        affected_users: USERS - ALREADY_CURRENT,
        failed_users: 0,
        skipped_users: ALREADY_CURRENT,
        vk_sync_errors: [],
      });

      const jobId = await run(interrupted.id);
      await pollStatus(admin, jobId, (st) => st.processed > 0, 60_000);
      worker.child.kill('SIGKILL');
      expect((await worker.exit).signal).toBe('SIGKILL');
      const outcomes = async () =>
        Number(
          (
            await query('SELECT count(*)::int AS n FROM access_profile_propagation_users WHERE propagation_id = $1', [
              jobId,
            ])
          )[0].n,
        );
      const atKill = await outcomes();
      expect(atKill).toBeGreaterThan(0);
      expect(atKill).toBeLessThan(USERS);
      const stuck = (await admin.get(`/api/governance/access-profiles/propagations/${jobId}`)).body;
      expect(stuck).toMatchObject({ status: 'running', total: USERS });
      expect(stuck.processed).toBeLessThan(USERS);
      // Nothing moves while no worker runs.
      await new Promise((r) => setTimeout(r, 500));
      expect(await outcomes()).toBe(atKill);

      // BullMQ hands the job of the dead worker (its lock expired) to the new one.
      worker = await startWorker();
      const done = await pollStatus(admin, jobId, (st) => st.status !== 'running', 150_000);
      expect(done).toMatchObject({ status: 'completed', processed: USERS, total: USERS });
      expect(done.result).toEqual({ ...steadyDone.result, fields: [...SIX_FIELDS] });
      expect(done.result.user_ids).toEqual(users.slice(ALREADY_CURRENT).sort());
      expect(worker.stdout.some((l) => l.includes('propagation resumed') && l.includes(jobId))).toBe(true);

      // Exactly once: every affected copy of the interrupted profile was updated once, the skipped ones never.
      const counts = await query(
        `SELECT t.n, count(*)::int AS copies FROM test_copy_updates t
         JOIN access_profile_copies c ON c.id = t.copy_id WHERE c.parent_profile_id = $1 GROUP BY t.n`,
        [interrupted.id],
      );
      expect(counts).toEqual([{ n: 1, copies: USERS - ALREADY_CURRENT }]);
      const [synced] = await query(
        `SELECT count(*) FILTER (WHERE outcome = 'affected' AND key_synced)::int AS synced, count(*)::int AS total
         FROM access_profile_propagation_users WHERE propagation_id = $1`,
        [jobId],
      );
      expect(synced).toEqual({ synced: USERS - ALREADY_CURRENT, total: USERS });
    }, 420_000);
  },
);
