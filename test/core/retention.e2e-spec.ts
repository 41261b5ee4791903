import { randomUUID } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpiredRowsRegistry, type PurgeResult } from '../../src/core/maintenance/expired-rows.service.js';
import { JOBS } from '../../src/core/queue/job-catalogue.js';
import { QueueService } from '../../src/core/queue/queue.service.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';

/** Rows a little older and a little younger than each retention (an hour either side). */
const AGES = { history_old: '2 days 1 hour', history_young: '1 day 23 hours', audit_old: '3 days 1 hour' } as const;

describe(`retention of append-only records (${RUN_MODE})`, () => {
  let gw: TestApp;
  let db: DataSource;
  const ids = {
    history: { old: randomUUID(), young: randomUUID() },
    audit: { old: randomUUID(), young: randomUUID() },
  };
  const events = { old: randomUUID(), young: randomUUID() };

  async function purge(reason: string): Promise<PurgeResult> {
    const queue = gw.app.get(QueueService);
    const { id } = await queue.enqueue(JOBS.purgeExpired, { reason });
    const view = await queue.waitForCompletion(id, 20_000);
    expect(view.state, view.error).toBe('completed');
    return view.result as PurgeResult;
  }

  beforeAll(async () => {
    gw = await startTestApp({ config: { agent_history: { retention: '2d' }, audit_logs: { retention: '3d' } } });
    db = gw.app.get<DataSource>(getDataSourceToken());
    // The purge scheduled at start must not race the rows below.
    await purge('settle');
    const operation = (id: string, age: string) =>
      db.query(
        `INSERT INTO agent_operations (id, agent_name, operation, status, status_code, latency_ms, created_at)
         VALUES ($1, 'retained', 'SendMessage', 'success', 200, 1, now() - $2::interval)`,
        [id, age],
      );
    await operation(ids.history.old, AGES.history_old);
    await operation(ids.history.young, AGES.history_young);
    const audit = (id: string, age: string) =>
      db.query(
        `INSERT INTO audit_logs (id, method, route, path, status_code, created_at)
         VALUES ($1, 'POST', '/api/retained', '/api/retained', 201, now() - $2::interval)`,
        [id, age],
      );
    await audit(ids.audit.old, AGES.audit_old);
    // Older than the history retention, younger than the audit one: audit logs keep their own period.
    await audit(ids.audit.young, AGES.history_old);
    const config = randomUUID();
    await db.query(
      `INSERT INTO agent_push_configs (id, agent_name, config_id, client_url, gateway_token_hash, created_at)
       VALUES ($1, 'retained', 'cfg', 'sealed', $2, now())`,
      [config, 'a'.repeat(64)],
    );
    const event = (id: string, age: string) =>
      db.query(
        `INSERT INTO agent_push_events (id, push_config_id, body_hash, body, status, created_at)
         VALUES ($1, $2, $3, '{}', 'delivered', now() - $4::interval)`,
        [id, config, id.replaceAll('-', '').padEnd(64, '0'), age],
      );
    await event(events.old, AGES.history_old);
    await event(events.young, AGES.history_young);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('registers history, audit logs and push events with their configured retention', () => {
    const tables = gw.app.get(ExpiredRowsRegistry).list();
    const day = 86_400_000;
    expect(tables).toEqual(
      expect.arrayContaining([
        { name: 'agent_operations', table: 'agent_operations', column: 'created_at', retentionMs: 2 * day },
        { name: 'agent_push_events', table: 'agent_push_events', column: 'created_at', retentionMs: 2 * day },
        { name: 'audit_logs', table: 'audit_logs', column: 'created_at', retentionMs: 3 * day },
      ]),
    );
  });

  it('deletes only the rows older than their retention', async () => {
    const result = await purge('retention');
    expect(result.deleted).toMatchObject({ agent_operations: 1, audit_logs: 1, agent_push_events: 1 });
    const left = async (from: string) =>
      (await db.query<Array<{ id: string }>>(`SELECT id FROM ${from} ORDER BY created_at`)).map((r) => r.id);
    expect(await left(`agent_operations WHERE agent_name = 'retained'`)).toEqual([ids.history.young]);
    expect(await left(`audit_logs WHERE route = '/api/retained'`)).toEqual([ids.audit.young]);
    expect(await left('agent_push_events')).toEqual([events.young]);
    // Nothing more to delete.
    expect((await purge('again')).deleted).toMatchObject({ agent_operations: 0, audit_logs: 0, agent_push_events: 0 });
  });

  it('refuses a retention that is not a positive number of milliseconds', () => {
    const registry = gw.app.get(ExpiredRowsRegistry);
    for (const retentionMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => registry.register({ name: 'rt_bad', table: 'rt_bad', column: 'created_at', retentionMs })).toThrow(
        /retentionMs must be a positive integer/,
      );
    }
    expect(registry.list().map((t) => t.name)).not.toContain('rt_bad');
  });
});
