import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGGER } from '../../src/core/logging/logging.module.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { dataSourceOf, SETUP_TOKEN } from '../auth/auth-helpers.js';

const VIEWER_ROLE_ID = '00000000-0000-4000-8000-000000000003';
const EMAIL = 'secret.person@example.com';
const HASH = `scrypt$32768$8$1$${'s'.repeat(22)}$${'h'.repeat(43)}`;
const PAYLOAD = `payload-${'p'.repeat(100_000)}`;

const INSERT_USER =
  'INSERT INTO users (id, name, email, role_id, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now())';

describe(`database errors are logged without their parameters (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN, log_level: 'debug' } });
  });
  afterAll(() => gw?.close());

  async function failing(query: string, params: unknown[]): Promise<unknown> {
    try {
      await dataSourceOf(gw).query(query, params);
    } catch (err) {
      return err;
    }
    throw new Error('the query did not fail');
  }

  it('a unique violation logs its code and constraint, never the hash, e-mail, query or detail', async () => {
    await dataSourceOf(gw).query(INSERT_USER, [randomUUID(), 'first', EMAIL, VIEWER_ROLE_ID, HASH]);
    const err = await failing(INSERT_USER, [randomUUID(), 'second', EMAIL, VIEWER_ROLE_ID, PAYLOAD]);
    gw.app.get<Logger>(LOGGER).error({ err, event_id: 'evt-1' }, 'unexpected error');

    const lines = gw.logs.records().filter((r) => r.err && (r.msg === 'unexpected error' || r.msg === 'query failed'));
    // The app's error line, and TypeORM's own query-failed line.
    expect(lines.map((r) => r.msg).sort()).toEqual(['query failed', 'unexpected error']);
    for (const line of lines) {
      const err = line.err as Record<string, unknown>;
      expect(err.code).toBe('23505');
      expect(err.constraint).toBe('uq_users_email');
      expect(err).not.toHaveProperty('parameters');
      expect(err).not.toHaveProperty('query');
      expect(err).not.toHaveProperty('detail');
    }
    const text = gw.logs.text();
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain(HASH);
    expect(text).not.toContain('p'.repeat(100));
    expect(text).not.toContain('INSERT INTO users');
    expect(text).toContain('"event_id":"evt-1"');
  });

  it('a value quoted in the message (bad uuid, NUL) is left out too', async () => {
    const before = gw.logs.lines.length;
    const err = await failing('SELECT * FROM users WHERE id = $1', ['not-a-uuid-but-a-secret']);
    gw.app.get<Logger>(LOGGER).error({ err }, 'unexpected error');
    const text = gw.logs.lines.slice(before).join('\n');
    expect(text).toContain('22P02');
    expect(text).toContain('invalid input syntax for type uuid: <value omitted>');
    expect(text).not.toContain('not-a-uuid-but-a-secret');
  });
});
