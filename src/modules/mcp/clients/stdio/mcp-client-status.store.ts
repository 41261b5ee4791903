import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { QueryDeepPartialEntity, Repository } from 'typeorm';
import { LOGGER } from '../../../../core/logging/logging.module.js';
import type { McpToolDefinition } from '../../mcp-contract.js';
import type { McpClientState } from '../dto/mcp-client.dto.js';
import { McpClientStatusEntity } from '../entities/mcp-client-status.entity.js';

/** A stdio client's connection as the process running its child last reported it. */
export interface ReportedStatus {
  state: McpClientState;
  tools: McpToolDefinition[];
  last_error: string | null;
}

const REPORTABLE = new Set<string>(['connected', 'disconnected', 'error']);

/** The shared state of stdio clients (`mcp_client_status`): written by workers on change, read by `api` replicas. */
@Injectable()
export class McpClientStatusStore {
  constructor(
    @InjectRepository(McpClientStatusEntity) private readonly repository: Repository<McpClientStatusEntity>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Never throws: a report lost (the client deleted meanwhile, the database away) is replaced by the next one. */
  async report(clientId: string, status: ReportedStatus): Promise<boolean> {
    try {
      const row = this.repository.create({
        client_id: clientId,
        state: status.state,
        tools: status.tools,
        last_error: status.last_error,
        reported_at: new Date(),
      });
      // The jsonb tool list is typed deeper than TypeORM's partial-entity type can follow.
      await this.repository.upsert(row as QueryDeepPartialEntity<McpClientStatusEntity>, ['client_id']);
      return true;
    } catch (err) {
      this.logger.debug({ err: (err as Error).message, client: clientId }, 'mcp client status not reported');
      return false;
    }
  }

  /** The last report, or undefined when no worker reported yet. */
  async read(clientId: string): Promise<ReportedStatus | undefined> {
    const row = await this.repository.findOneBy({ client_id: clientId });
    if (!row) return undefined;
    const state = REPORTABLE.has(row.state) ? (row.state as McpClientState) : 'error';
    return { state, tools: row.tools, last_error: row.last_error };
  }
}
