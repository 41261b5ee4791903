import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_WINDOW_HEADER, TOTAL_COUNT_CAPPED_HEADER } from '../../src/core/http/paging.dto.js';
import { MCP_JOBS } from '../../src/modules/mcp/mcp.jobs.js';
import { QueueService } from '../../src/core/queue/queue.service.js';
import { McpToolLogWriter, type McpToolLogEnd } from '../../src/modules/mcp/mcp-contract.js';
import { McpToolLogQuery } from '../../src/modules/mcp/logs/mcp-tool-log.query.js';
import { McpToolLogStore } from '../../src/modules/mcp/logs/mcp-tool-log.store.js';
import { SETUP_HEADER, SETUP_TOKEN } from '../auth/auth-helpers.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';

/** Minutes before the suite's start (the sweeper fails `processing` rows older than 30 minutes: keep e recent). */
const BASE = Math.floor(Date.now() / 60_000) * 60_000;
const at = (minutesAgo: number) => new Date(BASE - minutesAgo * 60_000);

interface Seed {
  name: string;
  minutesAgo: number;
  tool: string;
  server: string;
  vk?: { id: string; name: string };
  llmRequest?: string;
  args: Record<string, unknown>;
  end?: McpToolLogEnd;
}
const SEEDS: Seed[] = [
  {
    name: 'a',
    minutesAgo: 50,
    tool: 'files-read_file',
    server: 'files',
    vk: { id: 'vk-1', name: 'alpha' },
    llmRequest: 'req-1',
    args: { path: '/etc/hosts' },
    end: {
      status: 'success',
      latency: 120,
      cost: 0.01,
      result: { content: [{ type: 'text', text: 'the quick brown fox' }] },
    },
  },
  {
    name: 'b',
    minutesAgo: 40,
    tool: 'files-write_file',
    server: 'files',
    vk: { id: 'vk-1', name: 'alpha' },
    args: { path: '/tmp/x', text: 'lazy dog sleeps' },
    // An isError result: status error, result kept.
    end: {
      status: 'error',
      latency: 15,
      result: { isError: true, content: [{ type: 'text', text: 'permission denied' }] },
      error_details: { error: { message: 'permission denied' } },
    },
  },
  {
    name: 'c',
    minutesAgo: 30,
    tool: 'web-search',
    server: 'web',
    vk: { id: 'vk-2', name: 'beta' },
    llmRequest: 'req-2',
    args: { q: 'Quick SUMMARY please' },
    end: { status: 'success', latency: 900, cost: 0.05, result: { content: [] } },
  },
  {
    name: 'd',
    minutesAgo: 20,
    tool: 'web-fetch',
    server: 'web',
    args: { url: 'https://example.com/100%25' },
    end: { status: 'success', latency: 40, result: { content: [{ type: 'text', text: '100% literal_match' }] } },
  },
  {
    name: 'e',
    minutesAgo: 10,
    tool: 'files-read_file',
    server: 'files',
    vk: { id: 'vk-2', name: 'beta' },
    llmRequest: 'req-1',
    args: { path: '/weather/paris' },
  },
];

describe(`MCP tool logs (${RUN_MODE})`, () => {
  let gw: TestApp;
  let admin: HttpClient;
  let writer: McpToolLogWriter;
  let store: McpToolLogStore;
  const ids: Record<string, string> = {};
  const names = (body: any) => body.logs.map((r: any) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]);
  const list = async (query: Record<string, string | number>) => {
    const res = await admin.get('/api/mcp-logs', {
      query: { start_time: at(120).toISOString(), end_time: at(0).toISOString(), ...query },
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    admin = gw.http.withHeaders(SETUP_HEADER);
    writer = gw.app.get(McpToolLogWriter);
    store = gw.app.get(McpToolLogStore);
    expect(writer).toBe(store);
    const empty = await admin.get('/api/mcp-logs');
    expect(empty.body).toMatchObject({ logs: [], has_logs: false, pagination: { total_count: 0 } });
    for (const seed of SEEDS) {
      const id = randomUUID();
      ids[seed.name] = id;
      writer.started({
        id,
        timestamp: at(seed.minutesAgo),
        tool_name: seed.tool,
        server_label: seed.server,
        ...(seed.vk ? { virtual_key_id: seed.vk.id, virtual_key_name: seed.vk.name } : {}),
        ...(seed.llmRequest ? { llm_request_id: seed.llmRequest } : {}),
        arguments: seed.args,
        metadata: { team: 'qa' },
      });
      if (seed.end) writer.finished(id, seed.end);
    }
  });
  afterAll(() => gw?.close());

  it('lists newest first with pagination and has_logs; one row in full', async () => {
    const body = await list({});
    expect(names(body)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(body.pagination).toEqual({ total_count: 5, limit: 50, offset: 0, sort_by: 'timestamp', order: 'desc' });
    expect(body.has_logs).toBe(true);
    const page = await list({ limit: 2, offset: 1 });
    expect(names(page)).toEqual(['d', 'c']);
    expect(page.pagination).toMatchObject({ total_count: 5, limit: 2, offset: 1 });
    const none = await list({ tool_names: 'nope-nope' });
    expect(none).toMatchObject({ logs: [], has_logs: true, pagination: { total_count: 0 } });

    const a = body.logs.find((r: any) => r.id === ids.a);
    expect(a).toEqual({
      id: ids.a,
      llm_request_id: 'req-1',
      project_id: null,
      project_name: null,
      timestamp: at(50).toISOString(),
      tool_name: 'files-read_file',
      server_label: 'files',
      mcp_request_type: 'tool',
      virtual_key_id: 'vk-1',
      virtual_key_name: 'alpha',
      arguments: { path: '/etc/hosts' },
      result: { content: [{ type: 'text', text: 'the quick brown fox' }] },
      error_details: null,
      latency: 120,
      cost: 0.01,
      status: 'success',
      metadata: { team: 'qa' },
      plugin_logs: null,
      redaction_mapping: null,
      created_at: expect.any(String),
      virtual_key: { id: 'vk-1', name: 'alpha' },
    });
    const one = await admin.get(`/api/mcp-logs/${ids.b}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      status: 'error',
      result: { isError: true, content: [{ type: 'text', text: 'permission denied' }] },
      error_details: { error: { message: 'permission denied' } },
      cost: null,
      virtual_key: { id: 'vk-1', name: 'alpha' },
    });
    expect(Object.keys(one.body.virtual_key)).toEqual(['id', 'name']);
    const processing = await admin.get(`/api/mcp-logs/${ids.e}`);
    expect(processing.body).toMatchObject({ status: 'processing', latency: null, result: null });
    const d = await admin.get(`/api/mcp-logs/${ids.d}`);
    expect(d.body).toMatchObject({ virtual_key: null, virtual_key_id: null, cost: null });
    const missing = await admin.get(`/api/mcp-logs/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('log_not_found');
  });

  const FILTERS: Array<[Record<string, string | number>, string[]]> = [
    [{ tool_names: 'files-read_file' }, ['e', 'a']],
    [{ tool_names: 'web-search, files-write_file' }, ['c', 'b']],
    [{ server_labels: 'web' }, ['d', 'c']],
    [{ server_labels: 'files,web' }, ['e', 'd', 'c', 'b', 'a']],
    [{ status: 'error' }, ['b']],
    [{ status: 'processing' }, ['e']],
    [{ status: 'success,processing' }, ['e', 'd', 'c', 'a']],
    [{ virtual_key_ids: 'vk-1' }, ['b', 'a']],
    [{ virtual_key_ids: 'vk-2,vk-9' }, ['e', 'c']],
    [{ llm_request_ids: 'req-1' }, ['e', 'a']],
    [{ llm_request_ids: 'req-2,req-1' }, ['e', 'c', 'a']],
    [{ start_time: at(35).toISOString(), end_time: at(15).toISOString() }, ['d', 'c']],
    [{ min_latency: 100 }, ['c', 'a']],
    [{ max_latency: 40 }, ['d', 'b']],
    [{ min_latency: 100.5, max_latency: 900 }, ['c', 'a']],
    [{ content_search: 'quick' }, ['c', 'a']],
    [{ content_search: 'PARIS' }, ['e']],
    [{ content_search: '100%' }, ['d']],
    [{ content_search: 'literal_match' }, ['d']],
    [{ content_search: 'ick_br' }, []],
    [{ content_search: 'permission denied' }, ['b']],
    [{ content_search: 'quick', server_labels: 'web' }, ['c']],
    // One or two characters: no trigram, the same substring semantics.
    [{ content_search: 'QU' }, ['c', 'a']],
    [{ content_search: '%' }, ['d']],
    [{ content_search: 'q', server_labels: 'web' }, ['c']],
  ];
  it.each(FILTERS)('filters %j', async (query, expected) => {
    const body = await list(query);
    expect(names(body)).toEqual(expected);
    expect(body.pagination.total_count).toBe(expected.length);
  });

  it('a one- or two-character search reads the newest rows of the time range, at most the window', async () => {
    const query = gw.app.get(McpToolLogQuery);
    const before = query.shortSearchWindow;
    query.shortSearchWindow = 3;
    try {
      // The newest three rows are e, d, c: only c holds "qu"; a is older than the window.
      const res = await admin.get('/api/mcp-logs', {
        query: { start_time: at(120).toISOString(), end_time: at(0).toISOString(), content_search: 'qu' },
      });
      expect(names(res.body)).toEqual(['c']);
      expect(res.headers.get(SEARCH_WINDOW_HEADER)).toBe('3');
      expect(res.headers.get(TOTAL_COUNT_CAPPED_HEADER)).toBe('true');
      // The other filters apply to the window's rows.
      const web = await list({ content_search: 'qu', server_labels: 'web' });
      expect(names(web)).toEqual(['c']);
    } finally {
      query.shortSearchWindow = before;
    }
    const whole = await admin.get('/api/mcp-logs', { query: { content_search: 'qu' } });
    expect(whole.headers.get(SEARCH_WINDOW_HEADER)).toBeNull();
  });

  const SORTS: Array<[string, string, string[]]> = [
    ['latency', 'desc', ['c', 'a', 'd', 'b', 'e']],
    ['latency', 'asc', ['b', 'd', 'a', 'c', 'e']],
    ['cost', 'desc', ['c', 'a']],
    ['cost', 'asc', ['a', 'c']],
    ['timestamp', 'asc', ['a', 'b', 'c', 'd', 'e']],
    ['timestamp', 'desc', ['e', 'd', 'c', 'b', 'a']],
  ];
  it.each(SORTS)('sorts by %s %s (unknown values last)', async (sortBy, order, expected) => {
    const body = await list({ sort_by: sortBy, order });
    expect(names(body).slice(0, expected.length)).toEqual(expected);
    expect(body.logs).toHaveLength(5);
    expect(body.pagination).toMatchObject({ sort_by: sortBy, order });
  });

  it('pages through a sort without gaps or repeats', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 5; offset += 2) {
      seen.push(...names(await list({ sort_by: 'cost', order: 'desc', limit: 2, offset })));
    }
    expect(seen.slice(0, 2)).toEqual(['c', 'a']);
    expect(new Set(seen).size).toBe(5);
  });

  const BAD: Array<[Record<string, string>, string]> = [
    [{ limit: '0' }, 'limit'],
    [{ limit: '1001' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ offset: '-1' }, 'offset'],
    [{ offset: '1.5' }, 'offset'],
    [{ sort_by: 'tokens' }, 'sort_by'],
    [{ order: 'up' }, 'order'],
    [{ status: 'success,failed' }, 'status'],
    [{ status: 'done' }, 'status'],
    [{ start_time: 'yesterday' }, 'start_time'],
    [{ end_time: '2026-13-01T00:00:00Z' }, 'end_time'],
    [{ start_time: '2026-11-20T12:00:00Z', end_time: '2026-11-20T11:00:00Z' }, 'start_time'],
    [{ min_latency: '-1' }, 'min_latency'],
    [{ max_latency: '1e3' }, 'max_latency'],
    [{ min_latency: 'slow' }, 'min_latency'],
    [{ min_latency: '50', max_latency: '10' }, 'min_latency'],
    [{ content_search: 'x'.repeat(257) }, 'content_search'],
    [{ tool_names: 'a'.repeat(8200) }, 'tool_names'],
    [{ server_labels: 'a'.repeat(8200) }, 'server_labels'],
    [{ virtual_key_ids: 'a'.repeat(8200) }, 'virtual_key_ids'],
    [{ llm_request_ids: 'a'.repeat(8200) }, 'llm_request_ids'],
  ];
  it.each(BAD.map(([query, param], i) => [param, i, query] as const))(
    '400 naming %s (case %i)',
    async (param, _i, query) => {
      for (const path of ['/api/mcp-logs', '/api/mcp-logs/stats', '/api/mcp-logs/histogram']) {
        if (path !== '/api/mcp-logs' && ['limit', 'offset', 'sort_by', 'order'].includes(param)) continue;
        const res = await admin.get(path, { query });
        expect(res.status, `${path} ${res.text}`).toBe(400);
        expect(res.body.error.param).toBe(param);
      }
    },
  );

  it('stats over the filters: success rate over finished calls', async () => {
    const range = { start_time: at(120).toISOString(), end_time: at(0).toISOString() };
    const all = await admin.get('/api/mcp-logs/stats', { query: range });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      total_executions: 5,
      success_rate: 75,
      average_latency: (120 + 15 + 900 + 40) / 4,
      total_cost: expect.closeTo(0.06, 12),
    });
    const files = await admin.get('/api/mcp-logs/stats', { query: { ...range, server_labels: 'files' } });
    expect(files.body).toEqual({ total_executions: 3, success_rate: 50, average_latency: 67.5, total_cost: 0.01 });
    const none = await admin.get('/api/mcp-logs/stats', { query: { ...range, tool_names: 'x-y' } });
    expect(none.body).toEqual({ total_executions: 0, success_rate: 0, average_latency: 0, total_cost: 0 });
  });

  it('histogram: calls by status per bucket, empty buckets included', async () => {
    const query = { start_time: at(60).toISOString(), end_time: at(0).toISOString() };
    const res = await admin.get('/api/mcp-logs/histogram', { query });
    expect(res.status).toBe(200);
    expect(res.body.bucket_size_seconds).toBe(60);
    expect(res.body.buckets).toHaveLength(61);
    const sum = (k: string) => res.body.buckets.reduce((n: number, b: any) => n + b[k], 0);
    expect([sum('count'), sum('success'), sum('error'), sum('processing')]).toEqual([5, 3, 1, 1]);
    const bucketB = res.body.buckets.find((b: any) => b.timestamp === at(40).toISOString());
    expect(bucketB).toEqual({ timestamp: at(40).toISOString(), count: 1, success: 0, error: 1, processing: 0 });
    const web = await admin.get('/api/mcp-logs/histogram', { query: { ...query, server_labels: 'web' } });
    expect(web.body.buckets.reduce((n: number, b: any) => n + b.count, 0)).toBe(2);
    const day = await admin.get('/api/mcp-logs/histogram');
    expect(day.body.bucket_size_seconds).toBe(900);
  });

  it('filterdata: distinct tool names, server labels and virtual keys', async () => {
    const res = await admin.get('/api/mcp-logs/filterdata');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tool_names: ['files-read_file', 'files-write_file', 'web-fetch', 'web-search'],
      server_labels: ['files', 'web'],
      virtual_keys: [
        { id: 'vk-1', name: 'alpha' },
        { id: 'vk-2', name: 'beta' },
      ],
    });
  });

  it('a start and its end in one flush are one row; in two flushes the end completes the written row', async () => {
    const before = store.stats().written;
    const same = randomUUID();
    writer.started({ id: same, timestamp: new Date(), tool_name: 't-one', server_label: 't', arguments: { n: 1 } });
    writer.finished(same, { status: 'success', latency: 5, cost: 0.5, result: { ok: true } });
    await store.flush();
    expect(store.stats().written - before).toBe(1);
    expect((await admin.get(`/api/mcp-logs/${same}`)).body).toMatchObject({
      tool_name: 't-one',
      status: 'success',
      latency: 5,
      cost: 0.5,
      arguments: { n: 1 },
      result: { ok: true },
    });

    const later = randomUUID();
    const started = new Date(Date.now() - 1000);
    writer.started({
      id: later,
      timestamp: started,
      tool_name: 't-two',
      server_label: 't',
      virtual_key_id: 'vk-3',
      virtual_key_name: 'gamma',
      arguments: { n: 2 },
    });
    await store.flush();
    expect((await admin.get(`/api/mcp-logs/${later}`)).body).toMatchObject({ status: 'processing' });
    writer.finished(later, {
      status: 'error',
      latency: 7,
      cost: 1,
      result: { isError: true, content: [] },
      error_details: { error: { message: 'boom' } },
    });
    const row = (await admin.get(`/api/mcp-logs/${later}`)).body;
    expect(row).toMatchObject({
      tool_name: 't-two',
      server_label: 't',
      timestamp: started.toISOString(),
      virtual_key: { id: 'vk-3', name: 'gamma' },
      arguments: { n: 2 },
      status: 'error',
      latency: 7,
      cost: null,
      result: { isError: true, content: [] },
      error_details: { error: { message: 'boom' } },
    });

    // An end whose start was never written still makes a complete row, of its kind.
    const orphan = randomUUID();
    writer.finished(orphan, { status: 'success', latency: 3, result: { content: [] } });
    expect((await admin.get(`/api/mcp-logs/${orphan}`)).body).toMatchObject({
      id: orphan,
      status: 'success',
      latency: 3,
      tool_name: '',
      mcp_request_type: 'tool',
      virtual_key: null,
    });
    const prompt = randomUUID();
    writer.started({
      id: prompt,
      timestamp: new Date(),
      tool_name: 'p-greet',
      server_label: 'p',
      mcp_request_type: 'prompt',
      arguments: { name: 'greet' },
    });
    await store.flush();
    writer.finished(prompt, { status: 'success', mcp_request_type: 'prompt', latency: 2, result: { messages: [] } });
    expect((await admin.get(`/api/mcp-logs/${prompt}`)).body).toMatchObject({
      tool_name: 'p-greet',
      mcp_request_type: 'prompt',
      status: 'success',
    });
    const resource = randomUUID();
    writer.finished(resource, { status: 'error', mcp_request_type: 'resource', latency: 4 });
    expect((await admin.get(`/api/mcp-logs/${resource}`)).body).toMatchObject({ mcp_request_type: 'resource' });
  });

  it('the sweeper fails processing rows older than the pending log TTL, and only those', async () => {
    const old = randomUUID();
    const recent = randomUUID();
    const base = { tool_name: 'slow-tool', server_label: 'slow', arguments: {} };
    writer.started({ ...base, id: old, timestamp: new Date(Date.now() - 31 * 60_000) });
    writer.started({ ...base, id: recent, timestamp: new Date(Date.now() - 29 * 60_000) });
    const queue = gw.app.get(QueueService);
    const { id } = await queue.enqueue(MCP_JOBS.failPendingLogs, { reason: 'test' });
    const view = await queue.waitForCompletion(id, 20_000);
    expect(view.state, view.error).toBe('completed');
    expect((view.result as any).failed).toBe(1);
    const failed = (await admin.get(`/api/mcp-logs/${old}`)).body;
    expect(failed).toMatchObject({
      status: 'error',
      error_details: {
        status_code: 504,
        error: { code: 'mcp_tool_log_expired', message: 'did not complete before the pending log TTL' },
        extra_fields: { error_type: 'gateway_dropped' },
      },
    });
    expect((await admin.get(`/api/mcp-logs/${recent}`)).body.status).toBe('processing');
    expect((await admin.get(`/api/mcp-logs/${ids.e}`)).body.status).toBe('processing');
  });

  it('deletes by ids: counts only rows that existed; bad bodies are 400', async () => {
    const res = await admin.delete('/api/mcp-logs', { body: { ids: [ids.a, ids.b, randomUUID()] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: '2 logs deleted', deleted: 2 });
    expect((await admin.get(`/api/mcp-logs/${ids.a}`)).status).toBe(404);
    expect(names(await list({}))).not.toContain('a');
    for (const body of [{}, { ids: [] }, { ids: 'x' }, { ids: [1] }, { ids: ['x', 'x'] }]) {
      const bad = await admin.delete('/api/mcp-logs', { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.param).toMatch(/^ids/);
    }
  });
});
