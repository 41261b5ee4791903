import { expect } from 'vitest';
import type { HttpClient, HttpResult } from '../helpers/http.js';
import { DEVELOPER_ROLE, PROFILES } from './access-profiles-kit.js';

/** Runs one SQL statement (a test app's DataSource, or a pg client on a spawned gateway's database). */
export type Query = (sql: string, params?: unknown[]) => Promise<any[]>;

export const SIX_FIELDS = [
  'provider_configs',
  'budgets',
  'rate_limit',
  'mcp_tool_groups',
  'mcp_servers',
  'mcp_tool_overrides',
] as const;

export function propagate(admin: HttpClient, profileId: number | string, body: Record<string, unknown>) {
  return admin.post(`${PROFILES}/${profileId}/propagate`, body);
}

/** A propagate call expected to finish within the wait: its result. */
export async function propagated(admin: HttpClient, profileId: number, body: Record<string, unknown>): Promise<any> {
  const res = await propagate(admin, profileId, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Polls a propagation's status until `done(status)` holds. */
export async function pollStatus(
  admin: HttpClient,
  jobId: string,
  done: (status: any) => boolean,
  timeoutMs = 60_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res: HttpResult = await admin.get(`${PROFILES}/propagations/${jobId}`);
    expect(res.status, res.text).toBe(200);
    if (done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`propagation ${jobId} still ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Gives template `targetId` the listed fields of template `sourceId` (created through the API, so its fields are
 * validated and complete). Arranging state only: a template changed after users got their copies, without depending
 * on the template update route.
 */
export async function adoptFields(query: Query, targetId: number, sourceId: number, fields: readonly string[]) {
  for (const column of fields) {
    if (!(SIX_FIELDS as readonly string[]).includes(column)) throw new Error(`not a profile field: ${column}`);
    await query(
      `UPDATE access_profiles t SET "${column}" = s."${column}" FROM access_profiles s WHERE t.id = $1 AND s.id = $2`,
      [targetId, sourceId],
    );
  }
}

/** A copy's row (profile fields as stored). */
export async function copyOf(query: Query, userId: string, profileId: number): Promise<any> {
  const [row] = await query('SELECT * FROM access_profile_copies WHERE user_id = $1 AND parent_profile_id = $2', [
    userId,
    profileId,
  ]);
  return row;
}

/** Seeds `count` users tagged `tag` (their emails), in one statement; returns their ids, sorted. Seeding only. */
export async function seedUsers(query: Query, count: number, tag: string): Promise<string[]> {
  await query(
    `INSERT INTO users (id, name, email, role_id)
     SELECT gen_random_uuid(), 'seed ' || i, 'seed-' || i || '-' || $2 || '@example.com', $3
     FROM generate_series(1, $1::int) AS i`,
    [count, tag, DEVELOPER_ROLE],
  );
  const rows = await query(`SELECT id FROM users WHERE email LIKE 'seed-%-' || $1 || '@example.com' ORDER BY id`, [
    tag,
  ]);
  return rows.map((r) => r.id as string);
}

/**
 * Gives every user tagged `tag` a copy of the profile as it is now, with a managed key row each, in two statements
 * (seeding only: the keys get their policy rows from the first propagation that rewrites them).
 */
export async function seedCopies(query: Query, profileId: number, tag: string): Promise<void> {
  await query(
    `INSERT INTO access_profile_copies (user_id, parent_profile_id, name, provider_configs, budgets, rate_limit,
       calendar_aligned, mcp_tool_groups, mcp_servers, mcp_tool_overrides)
     SELECT u.id, p.id, p.name, p.provider_configs, p.budgets, p.rate_limit, p.calendar_aligned, p.mcp_tool_groups,
       p.mcp_servers, p.mcp_tool_overrides
     FROM users u CROSS JOIN access_profiles p
     WHERE p.id = $1 AND u.email LIKE 'seed-%-' || $2 || '@example.com'`,
    [profileId, tag],
  );
  await query(
    `INSERT INTO virtual_keys (id, name, access_profile_copy_id)
     SELECT gen_random_uuid(), 'seed key ' || c.id, c.id FROM access_profile_copies c
     WHERE c.parent_profile_id = $1
       AND NOT EXISTS (SELECT 1 FROM virtual_keys v WHERE v.access_profile_copy_id = c.id)`,
    [profileId],
  );
}
