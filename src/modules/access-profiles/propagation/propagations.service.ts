import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource } from 'typeorm';
import type { Principal } from '../../../core/auth/principal.js';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { ACCESS_PROFILE_JOBS } from '../access-profiles.jobs.js';
import { QueueService } from '../../../core/queue/queue.service.js';
import { isId } from '../../../core/validation/ids.js';
import { AccessProfileCopyEntity } from '../entities/access-profile-copy.entity.js';
import type { AccessProfileEntity } from '../entities/access-profile.entity.js';
import { AccessProfilesService } from '../templates/access-profiles.service.js';
import type { PropagateAccessProfileDto } from './dto/propagate-access-profile.dto.js';
import type { PropagationStatusDto } from './dto/propagation-result.dto.js';
import {
  AccessProfilePropagationEntity,
  ONE_RUNNING_PER_PROFILE,
  type PropagationRequest,
  type PropagationResult,
} from './entities/access-profile-propagation.entity.js';
import { planCopy } from './propagation-plan.js';
import { selectUsers } from './propagation-selection.js';
import { summarise } from './propagation-summary.js';

/** A propagate call's answer: the result (200), or the job to follow (202) when it did not finish in time. */
export type PropagateOutcome = { result: PropagationResult } | { job_id: string };

/**
 * The request side of propagation: a dry run is computed here (read-only); a real one takes the profile's lock (a
 * `running` row, unique per profile across replicas), enqueues its job and waits for it up to
 * `access_profiles.propagation_wait`.
 */
@Injectable()
export class PropagationsService {
  private readonly waitMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly profiles: AccessProfilesService,
    private readonly queue: QueueService,
    config: GatewayConfig,
  ) {
    this.waitMs = parseDuration(config.access_profiles.propagation_wait) ?? 30_000;
  }

  async propagate(
    profileId: number,
    dto: PropagateAccessProfileDto,
    principal: Principal | undefined,
  ): Promise<PropagateOutcome> {
    const profile = await this.profiles.get(profileId);
    const request: PropagationRequest = {
      fields: dto.fields,
      user_ids: [...new Set((dto.user_ids ?? []).map((id) => id.toLowerCase()))],
      group_ids: [...new Set((dto.group_ids ?? []).map((id) => id.toLowerCase()))],
      reset_usage: dto.reset_usage ?? false,
    };
    if (dto.dry_run) return { result: await this.preview(profile, request) };
    const id = randomUUID();
    try {
      await this.dataSource.manager.insert(AccessProfilePropagationEntity, {
        id,
        access_profile_id: profile.id,
        request,
        status: 'running',
        actor: principal?.name ?? principal?.id ?? null,
      });
    } catch (error) {
      if (isUniqueViolation(error, ONE_RUNNING_PER_PROFILE)) {
        throw new GatewayException(
          409,
          'propagation_in_progress',
          `A propagation of access profile ${profile.id} is running; retry when it finished`,
        );
      }
      throw error;
    }
    try {
      await this.queue.enqueue(ACCESS_PROFILE_JOBS.propagate, { propagation_id: id });
    } catch (error) {
      // Without its job the row would hold the profile's lock until the recovery sweep; release it now.
      await this.dataSource.manager.delete(AccessProfilePropagationEntity, { id });
      throw error;
    }
    await this.queue.waitForCompletion(id, this.waitMs);
    const row = await this.dataSource.manager.findOneBy(AccessProfilePropagationEntity, { id });
    return row?.status === 'completed' && row.result ? { result: row.result } : { job_id: id };
  }

  async status(jobId: string): Promise<PropagationStatusDto> {
    const row = isId(jobId)
      ? await this.dataSource.manager.findOneBy(AccessProfilePropagationEntity, { id: jobId })
      : null;
    if (!row) throw GatewayException.notFound('propagation', `Propagation ${jobId} not found`);
    return {
      job_id: row.id,
      access_profile_id: row.access_profile_id,
      status: row.status,
      processed: row.processed,
      total: row.total,
      ...(row.result ? { result: row.result } : {}),
      ...(row.error ? { error: row.error } : {}),
      created_at: row.created_at.toISOString(),
      ...(row.finished_at ? { finished_at: row.finished_at.toISOString() } : {}),
    };
  }

  /** The counts a propagation would produce now, from the same plan per user; nothing is written. */
  private async preview(profile: AccessProfileEntity, request: PropagationRequest): Promise<PropagationResult> {
    const m = this.dataSource.manager;
    const selected = await selectUsers(m, profile.id, request);
    const copies = new Map<string, AccessProfileCopyEntity>();
    // Chunks keep the parameter count of each query bounded (a team may hold thousands of users).
    for (let i = 0; i < selected.length; i += 1000) {
      const rows = await m.findBy(AccessProfileCopyEntity, {
        parent_profile_id: profile.id,
        user_id: In(selected.slice(i, i + 1000)),
      });
      for (const c of rows) copies.set(c.user_id, c);
    }
    const options = { fields: request.fields, resetUsage: request.reset_usage };
    const outcomes = selected.map((user_id) => ({
      user_id,
      outcome: planCopy(profile, copies.get(user_id) ?? null, options).outcome,
      key_synced: true,
      message: null,
    }));
    return summarise(request.fields, outcomes, false);
  }
}
