import { defineJobs, QUEUES } from '../../core/queue/job-catalogue.js';
import type { StoredSecret } from '../../core/secrets/secret-value.js';

declare module '../../core/queue/job-catalogue.js' {
  interface JobPayloads {
    /** Fail MCP tool logs still `processing` after `mcp.pending_log_ttl`. */
    'mcp.fail-pending-logs': { reason?: string };
    /**
     * One tool call of a stdio MCP client, asked by an `api` replica (which spawns no child) and awaited by it. Carries
     * the call's arguments (kept in Redis for `keepCompletedMs`, as is the result); `deadline` (epoch ms) is when the
     * caller stops waiting: a job picked up later does not run.
     */
    'mcp.stdio-call': { client_id: string; tool: string; arguments: Record<string, unknown>; deadline: number };
    /**
     * A stdio client's connection check before a create or update is saved (`probe`: the unsaved `stdio_config`, its
     * envs sealed SecretValues, never plain text), or a tool list refresh of a saved one (`refresh`), asked by an
     * `api` replica.
     */
    'mcp.stdio-control':
      | { action: 'probe'; client_id: string; name: string; stdio_config: McpStdioConfigPayload }
      | { action: 'refresh'; client_id: string };
  }
}

/** `stdio_config` as stored (envs are sealed SecretValues: ciphertext or a reference). */
export interface McpStdioConfigPayload {
  command: string;
  args: string[];
  envs: Record<string, StoredSecret>;
}

/** The MCP module's background jobs (see src/core/queue/job-catalogue.ts). */
export const MCP_JOBS = {
  failPendingLogs: 'mcp.fail-pending-logs',
  stdioCall: 'mcp.stdio-call',
  stdioControl: 'mcp.stdio-control',
} as const;

export const MCP_JOB_SETTINGS = defineJobs({
  'mcp.fail-pending-logs': {
    queue: QUEUES.maintenance,
    attempts: 2,
    backoff: { type: 'fixed', delayMs: 5_000 },
    repeatEveryMs: 60 * 1000,
    repeatPayload: { reason: 'schedule' },
    keepCompletedMs: 10 * 60 * 1000,
    timeoutMs: 60_000,
  },
  'mcp.stdio-call': {
    queue: QUEUES.mcpStdio,
    // A tool call is never replayed (tools are not idempotent); a failure is the caller's answer.
    attempts: 1,
    backoff: { type: 'fixed', delayMs: 0 },
    // The result is read by the waiting caller at once; it is not kept for anyone else.
    keepCompletedMs: 60_000,
    // The call has its own limit (the deadline); this one only catches a handler that hangs.
    timeoutMs: 61 * 60 * 1000,
  },
  'mcp.stdio-control': {
    queue: QUEUES.mcpStdio,
    attempts: 1,
    backoff: { type: 'fixed', delayMs: 0 },
    keepCompletedMs: 60_000,
    timeoutMs: 2 * 60 * 1000,
  },
});
