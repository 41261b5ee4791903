import { describe, expect, it } from 'vitest';
import { mcpLogsQueryOf, mcpLogsSearchOf, readMcpLogsSearch } from './mcp-logs-search';

describe('MCP tool logs URL', () => {
  it('reads every parameter of GET /api/mcp-logs as its type, plus period and log; drops the rest', () => {
    expect(
      readMcpLogsSearch({
        tool_names: 'files-read_file,files-write_file',
        status: 'error',
        llm_request_ids: 'req-1',
        min_latency: '12.5',
        limit: '25',
        sort_by: 'latency',
        period: '1h',
        log: 'abc',
        providers: 'openai',
        live: 'true',
      }),
    ).toEqual({
      tool_names: 'files-read_file,files-write_file',
      status: 'error',
      llm_request_ids: 'req-1',
      min_latency: 12.5,
      limit: 25,
      sort_by: 'latency',
      period: '1h',
      log: 'abc',
    });
    expect(readMcpLogsSearch({ sort_by: 'tokens', limit: 'ten', period: '2h' })).toEqual({});
  });

  it('leaves the API defaults out of the URL', () => {
    expect(mcpLogsSearchOf({ limit: 50, offset: 0, sort_by: 'timestamp', order: 'desc', status: 'error' })).toEqual({
      status: 'error',
    });
  });

  it('makes a period absolute, an explicit start winning, and leaves the open log out of the query', () => {
    const now = Date.parse('2026-12-07T12:00:00.000Z');
    expect(mcpLogsQueryOf({ period: '1h', log: 'abc', server_labels: 'files' }, now)).toEqual({
      limit: 50,
      offset: 0,
      sort_by: 'timestamp',
      order: 'desc',
      server_labels: 'files',
      start_time: '2026-12-07T11:00:00.000Z',
    });
    expect(mcpLogsQueryOf({ period: '1h', start_time: '2026-12-01T00:00:00Z' }, now).start_time).toBe(
      '2026-12-01T00:00:00Z',
    );
  });
});
