import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../../../../core/logging/logging.module.js';
import { JobHandler, type JobContext } from '../../../../core/queue/job-handler.decorator.js';
import { type JobPayloads } from '../../../../core/queue/job-catalogue.js';
import { MCP_JOBS } from '../../mcp.jobs.js';
import { McpCallError } from '../../mcp-contract.js';
import { McpConnectionRegistry } from '../mcp-connection.registry.js';
import type { StdioCallOutcome, StdioControlOutcome } from './stdio-jobs.contract.js';

/**
 * The worker side of stdio clients asked for by `api` replicas: runs each job over this process's own connection
 * (role worker or all). Outcomes are results, never throws: a failed call is the caller's answer, not a job to retry.
 */
@Injectable()
export class McpStdioJobs {
  constructor(
    private readonly registry: McpConnectionRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @JobHandler(MCP_JOBS.stdioCall)
  async call(payload: JobPayloads['mcp.stdio-call'], context: JobContext): Promise<StdioCallOutcome> {
    const left = payload.deadline - Date.now();
    if (left <= 0) {
      // Picked up after the caller stopped waiting: running it now would act for nobody.
      return { error: { kind: 'timeout', message: `Tool ${payload.tool} was not started before its deadline` } };
    }
    // The arguments and the result are the tool log row's business (written by the asking replica), never logged.
    this.logger.debug({ client: payload.client_id, tool: payload.tool, job_id: context.jobId }, 'mcp stdio call');
    try {
      const result = await this.registry.callTool(payload.client_id, payload.tool, payload.arguments, {
        timeoutMs: left,
        signal: context.signal,
      });
      return { result };
    } catch (err) {
      if (err instanceof McpCallError) {
        return {
          error: { kind: err.kind, message: err.message, ...(err.code !== undefined ? { code: err.code } : {}) },
        };
      }
      return { error: { kind: 'transport', message: err instanceof Error ? err.message : String(err) } };
    }
  }

  @JobHandler(MCP_JOBS.stdioControl)
  async control(payload: JobPayloads['mcp.stdio-control']): Promise<StdioControlOutcome> {
    try {
      if (payload.action === 'probe') {
        return { tools: await this.registry.probeStdio(payload.client_id, payload.name, payload.stdio_config) };
      }
      const connection = this.registry.connectionOf(payload.client_id);
      if (!connection) return { error: 'the client has no connection on the worker (unknown or disabled)' };
      await connection.refreshTools();
      return { tools: connection.tools };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }
}
