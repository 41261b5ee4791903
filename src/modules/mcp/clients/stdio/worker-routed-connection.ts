import type {
  CallToolResult,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { type JobPayloads } from '../../../../core/queue/job-catalogue.js';
import { MCP_JOBS } from '../../mcp.jobs.js';
import type { QueueService } from '../../../../core/queue/queue.service.js';
import { McpCallError, type McpCallOptions, type McpToolDefinition } from '../../mcp-contract.js';
import type { McpClientState } from '../dto/mcp-client.dto.js';
import type { StoredStdioConfig } from '../entities/mcp-client.entity.js';
import type { LiveConnection } from '../live-connection.js';
import type { McpClientStatusStore } from './mcp-client-status.store.js';
import { QUEUE_GRACE_MS, type StdioCallOutcome, type StdioControlOutcome } from './stdio-jobs.contract.js';

export interface RoutedConnectionDeps {
  queue: QueueService;
  status: McpClientStatusStore;
  /** The registration's `stdio_config` when this connection was made (what a probe checks). */
  stdioConfig: StoredStdioConfig | null;
  /** Deadline of a probe or refresh on the worker (its connect timeout), in ms. */
  controlTimeoutMs: () => number;
  onChange: () => void;
  logger: Logger;
}

/**
 * A stdio client as an `api` replica holds it: no child here. State, tools and last error are what the process
 * running the child (role `worker` or `all`) reported in `mcp_client_status`, read again when it says it reported
 * (invalidation bus); calls, connection checks and refreshes are jobs of the `gateway-mcp-stdio` queue that a worker
 * runs and this replica awaits (`QueueService.waitForCompletion`), with the call's own timeout. Only tools cross the
 * queue: what the server sends during a call (progress, log lines, requests of the caller) stays on the worker, and
 * its prompts and resources are not offered here (the worker reports tools only).
 */
export class WorkerRoutedConnection implements LiveConnection {
  state: McpClientState = 'disconnected';
  tools: McpToolDefinition[] = [];
  lastError: string | null = null;
  readonly capabilities: ServerCapabilities = {};
  readonly prompts: Prompt[] = [];
  readonly resources: Resource[] = [];
  readonly resourceTemplates: ResourceTemplate[] = [];
  private closed = false;
  /** Reads started; only the latest one's answer is applied (two reads may answer out of order). */
  private reads = 0;

  constructor(
    readonly id: string,
    readonly name: string,
    private readonly deps: RoutedConnectionDeps,
  ) {}

  /** Reads the reported state in the background. */
  start(): void {
    this.reload().catch((err: unknown) =>
      this.deps.logger.warn({ client: this.name, err: (err as Error).message }, 'mcp client status not read'),
    );
  }

  /** Takes the worker's last report (none yet: the state stays as it is). */
  async reload(): Promise<void> {
    const read = ++this.reads;
    const status = await this.deps.status.read(this.id);
    if (this.closed || !status || read !== this.reads) return;
    this.state = status.state;
    this.tools = status.tools;
    this.lastError = status.last_error;
    this.deps.onChange();
  }

  /** Has a worker spawn the server from this registration's config, list its tools and stop it (a probe). */
  async connect(): Promise<void> {
    const config = this.deps.stdioConfig ?? { command: '', args: [], envs: {} };
    const outcome = await this.control({
      action: 'probe',
      client_id: this.id,
      name: this.name,
      stdio_config: { command: config.command, args: config.args, envs: config.envs },
    });
    if (this.closed) throw new Error('connection closed');
    if ('error' in outcome) {
      this.state = 'error';
      this.lastError = outcome.error;
      this.deps.onChange();
      throw new Error(outcome.error);
    }
    this.state = 'connected';
    this.tools = outcome.tools;
    this.lastError = null;
    this.deps.onChange();
  }

  async refreshTools(): Promise<number> {
    const outcome = await this.control({ action: 'refresh', client_id: this.id });
    if ('error' in outcome) throw new McpCallError('disconnected', outcome.error);
    this.tools = outcome.tools;
    this.deps.onChange();
    return outcome.tools.length;
  }

  async callTool(toolName: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
    const { queue } = this.deps;
    const { id } = await queue.enqueue(MCP_JOBS.stdioCall, {
      client_id: this.id,
      tool: toolName,
      arguments: args,
      deadline: Date.now() + options.timeoutMs,
    });
    const view = await queue.waitForCompletion(id, options.timeoutMs + QUEUE_GRACE_MS, options.signal);
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('The call was aborted');
    if (view.state === 'completed') {
      const outcome = view.result as StdioCallOutcome;
      if ('result' in outcome) return outcome.result;
      throw new McpCallError(outcome.error.kind, outcome.error.message, outcome.error.code);
    }
    if (view.state === 'failed') {
      throw new McpCallError('transport', `MCP client ${this.name}: the worker could not run the call: ${view.error}`);
    }
    throw new McpCallError(
      'timeout',
      `Tool ${toolName} did not answer within ${options.timeoutMs} ms (no worker took the call of stdio client ${this.name})`,
    );
  }

  /** Nothing but tools is relayed to a stdio server from an api replica (its capabilities are empty). */
  request(): Promise<Record<string, unknown>> {
    return Promise.reject(
      new McpCallError(
        'disconnected',
        `MCP client ${this.name} relays tools only from this replica (stdio on a worker)`,
      ),
    );
  }

  subscribe(): Promise<void> {
    return this.request().then(() => undefined);
  }

  unsubscribe(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  private async control(payload: JobPayloads['mcp.stdio-control']): Promise<StdioControlOutcome> {
    const { queue } = this.deps;
    const waitMs = this.deps.controlTimeoutMs() + QUEUE_GRACE_MS;
    const { id } = await queue.enqueue(MCP_JOBS.stdioControl, payload);
    const view = await queue.waitForCompletion(id, waitMs);
    if (view.state === 'completed') return view.result as StdioControlOutcome;
    if (view.state === 'failed') return { error: `the worker could not run the check: ${view.error}` };
    return {
      error: `no worker answered within ${waitMs} ms (stdio servers run on processes of role worker or all)`,
    };
  }
}
