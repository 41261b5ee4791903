import { describe, expect, it } from 'vitest';
import {
  blankProblems,
  bytesText,
  formValues,
  hitRatio,
  parseJsonObject,
  pluginMoves,
  purgeTarget,
  requestValues,
  resetPatch,
  sectionsOf,
  settingRows,
  settingsPatch,
  sourceBadge,
  valueAt,
  withValueAt,
  type PluginView,
  type RuntimeConfig,
} from './settings-helpers';

const CONFIG: RuntimeConfig = {
  config: {
    governance: { redis_failure_mode: 'closed' },
    http: { cors_allowed_origins: [] },
    inference: {
      require_virtual_key: false,
      allow_direct_keys: true,
      routing_chain_max_depth: 10,
      async_job_result_ttl: 3600,
      forward_headers: ['x-tenant-id', 'x-trace-*'],
      network_defaults: {
        default_request_timeout: '30s',
        max_retries: 2,
        retry_backoff_initial: '500ms',
        retry_backoff_max: '5s',
      },
    },
    logs: {
      enabled: true,
      capture_content: true,
      max_content_bytes: 65536,
      capture_raw: false,
      metadata_header_prefix: 'x-meta-',
      retention: '30d',
    },
    mcp: { max_agent_depth: 7 },
  },
  sources: { 'mcp.max_agent_depth': 'file', 'logs.retention': 'api' },
  process: {
    host: '127.0.0.1',
    port: 8080,
    role: 'all',
    edition: 'oss',
    database: 'pglite',
    database_parallel_query: false,
    redis: false,
    redis_prefix: 'gw:',
    encryption_key_source: 'generated',
    app_dir: '/tmp/app',
    config_path: null,
  },
};

describe('settingRows', () => {
  const rows = settingRows(CONFIG);
  const row = (key: string) => rows.find((r) => r.key === key);

  it('lists every runtime key, nested objects walked, with value, source and kind', () => {
    expect(rows).toHaveLength(18);
    expect(row('inference.network_defaults.max_retries')).toMatchObject({
      section: 'inference',
      value: 2,
      source: 'default',
      kind: 'integer',
    });
    expect(row('mcp.max_agent_depth')).toMatchObject({ value: 7, source: 'file' });
    expect(row('logs.retention')).toMatchObject({ value: '30d', source: 'api', kind: 'string' });
    expect(row('governance.redis_failure_mode')?.kind).toBe('enum');
    expect(row('http.cors_allowed_origins')?.kind).toBe('list');
    expect(row('logs.enabled')?.kind).toBe('boolean');
  });

  it('groups them by section in order', () => {
    expect(sectionsOf(rows).map((s) => s.section)).toEqual(['governance', 'http', 'inference', 'logs', 'mcp']);
  });
});

describe('nested paths', () => {
  it('reads and writes a dotted key without touching the original', () => {
    const target = { a: { b: 1 } };
    const next = withValueAt(target, 'a.c.d', 2);
    expect(next).toEqual({ a: { b: 1, c: { d: 2 } } });
    expect(target).toEqual({ a: { b: 1 } });
    expect(valueAt(next, 'a.c.d')).toBe(2);
    expect(valueAt(next, 'a.x.y')).toBeUndefined();
  });
});

describe('settingsPatch', () => {
  const rows = settingRows(CONFIG);

  it('is empty when nothing changed', () => {
    expect(settingsPatch(rows, formValues(rows))).toEqual({ patch: {}, changed: [] });
  });

  it('sends only the changed settings, nested and converted', () => {
    let values = formValues(rows);
    expect(valueAt(values, 'inference.forward_headers')).toBe('x-tenant-id\nx-trace-*');
    values = withValueAt(values, 'mcp.max_agent_depth', '12');
    values = withValueAt(values, 'inference.forward_headers', 'x-tenant-id\n\n x-org ');
    values = withValueAt(values, 'inference.network_defaults.max_retries', '2');
    values = withValueAt(values, 'logs.capture_raw', true);
    expect(settingsPatch(rows, values)).toEqual({
      patch: {
        inference: { forward_headers: ['x-tenant-id', 'x-org'] },
        logs: { capture_raw: true },
        mcp: { max_agent_depth: 12 },
      },
      changed: ['inference.forward_headers', 'logs.capture_raw', 'mcp.max_agent_depth'],
    });
  });

  it('keeps a number that is not one as typed, for the constraints to refuse', () => {
    const values = withValueAt(formValues(rows), 'mcp.max_agent_depth', 'many');
    expect(valueAt(requestValues(rows, values), 'mcp.max_agent_depth')).toBe('many');
  });

  it('refuses a blank text or number, never a blank list', () => {
    let values = withValueAt(formValues(rows), 'logs.retention', ' ');
    values = withValueAt(values, 'inference.forward_headers', '');
    expect(Object.keys(blankProblems(rows, values))).toEqual(['logs.retention']);
  });
});

describe('resetPatch', () => {
  it('puts null at the key', () => {
    expect(resetPatch('inference.network_defaults.max_retries')).toEqual({
      inference: { network_defaults: { max_retries: null } },
    });
  });
});

describe('sourceBadge', () => {
  it('labels each source as the API names it', () => {
    expect(sourceBadge('api').label).toBe('api');
    expect(sourceBadge('file').label).toBe('file');
    expect(sourceBadge('default').label).toBe('default');
  });
});

describe('pluginMoves', () => {
  const plugin = (name: string, order: number): PluginView => ({ name, order, enabled: true, config: {} });

  it('swaps two distinct orders', () => {
    expect(pluginMoves([plugin('a', 0), plugin('b', 10), plugin('c', 20)], 2, -1)).toEqual([
      { name: 'c', order: 10 },
      { name: 'b', order: 20 },
    ]);
  });

  it('renumbers equal orders in the new order', () => {
    expect(pluginMoves([plugin('a', 0), plugin('b', 5), plugin('c', 5)], 1, 1)).toEqual([
      { name: 'c', order: 10 },
      { name: 'b', order: 20 },
    ]);
  });

  it('does nothing past either end', () => {
    expect(pluginMoves([plugin('a', 0)], 0, -1)).toEqual([]);
    expect(pluginMoves([plugin('a', 0)], 0, 1)).toEqual([]);
  });
});

describe('parseJsonObject', () => {
  it('takes an object, blank as {}, and refuses the rest', () => {
    expect(parseJsonObject('{"ttl": "5m"}')).toEqual({ value: { ttl: '5m' } });
    expect(parseJsonObject('  ')).toEqual({ value: {} });
    expect(parseJsonObject('[1]')).toEqual({ error: 'Must be a JSON object ({ … })' });
    expect(parseJsonObject('{ttl')).toHaveProperty('error');
  });
});

describe('purgeTarget', () => {
  it('tells a cache key from a request id', () => {
    const key = 'A'.repeat(64);
    expect(purgeTarget(` ${key} `)).toEqual({ kind: 'key', key: 'a'.repeat(64) });
    expect(purgeTarget('req-123')).toEqual({ kind: 'request', id: 'req-123' });
    expect(purgeTarget('abc')).toEqual({ kind: 'request', id: 'abc' });
    expect(purgeTarget('  ')).toBeUndefined();
  });
});

describe('cache figures', () => {
  it('reads the hit ratio and sizes', () => {
    expect(hitRatio({ hits: 0, misses: 0, hit_rate: 0 })).toEqual({ value: '—', hint: 'no lookup yet' });
    expect(hitRatio({ hits: 3, misses: 1, hit_rate: 0.75 }, 'en-US')).toEqual({ value: '75%', hint: '3 of 4 lookups' });
    expect(bytesText(512, 'en-US')).toBe('512 B');
    expect(bytesText(1536, 'en-US')).toBe('1.5 KB');
    expect(bytesText(3 * 1024 * 1024, 'en-US')).toBe('3 MB');
  });
});
