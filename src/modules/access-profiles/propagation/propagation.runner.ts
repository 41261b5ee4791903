import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { In, LessThan, type DataSource } from 'typeorm';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { bulkUpdate } from '../../../core/persistence/bulk-write.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { type JobPayloads } from '../../../core/queue/job-catalogue.js';
import { ACCESS_PROFILE_JOBS, ACCESS_PROFILE_JOB_SETTINGS } from '../access-profiles.jobs.js';
import { JobHandler, type JobContext } from '../../../core/queue/job-handler.decorator.js';
import { JobRecoveryRegistry } from '../../../core/queue/job-recovery.registry.js';
import { errorMessage } from '../../../core/queue/job-runner.js';
import { VirtualKeyEntity } from '../../governance/index.js';
import { profileFieldsOf, type ProfileFields, type PropagationField } from '../access-profile-fields.js';
import { AccessProfileCopyEntity } from '../entities/access-profile-copy.entity.js';
import { AccessProfileEntity } from '../entities/access-profile.entity.js';
import { ManagedKeyWriter } from '../managed-key.writer.js';
import { AccessProfilePropagationUserEntity } from './entities/access-profile-propagation-user.entity.js';
import {
  AccessProfilePropagationEntity,
  type PropagationResult,
} from './entities/access-profile-propagation.entity.js';
import { PropagationAudit } from './propagation.audit.js';
import { planCopy } from './propagation-plan.js';
import { ResetBatch } from './reset-batch.js';
import { selectUsers } from './propagation-selection.js';
import { summarise } from './propagation-summary.js';

const OUTCOME_KEY = 'pk_access_profile_propagation_users';
/** Column types of the copy fields a propagation writes (bulkUpdate). */
const COPY_COLUMN_TYPES: Record<PropagationField, string> = {
  provider_configs: 'jsonb',
  budgets: 'jsonb',
  rate_limit: 'jsonb',
  mcp_tool_groups: 'jsonb',
  mcp_servers: 'jsonb',
  mcp_tool_overrides: 'jsonb',
};
const copyColumns = (fields: readonly PropagationField[]) =>
  Object.fromEntries(fields.map((f) => [f, COPY_COLUMN_TYPES[f]]));

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Progress is written to the row and the job at most this often. */
const PROGRESS_EVERY_MS = 250;
/** Batches in flight at once on Postgres (at most half its pool, the rest for requests); PGlite has one connection. */
const MAX_CONCURRENCY = 4;
/** Users per batch: on Postgres; on PGlite (one connection, keep its transactions short). */
const BATCH_SIZE = 200;
const EMBEDDED_BATCH_SIZE = 50;

/**
 * The `access-profiles.propagate` job. Per selected user: one transaction takes the copy (row lock), applies the
 * chosen template fields and records the user's outcome; a second one rewrites the copy's managed keys and marks the
 * outcome `key_synced`. An attempt skips users already recorded, so a retry (worker killed, job re-run) converges on
 * the same result and applies nobody twice; affected users whose key sync never committed are synced again.
 */
@Injectable()
export class PropagationRunner {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly managedKeys: ManagedKeyWriter,
    private readonly audit: PropagationAudit,
    @Inject(LOGGER) private readonly logger: Logger,
    recovery: JobRecoveryRegistry,
  ) {
    recovery.register({
      job: ACCESS_PROFILE_JOBS.propagate,
      findOrphans: async (olderThanMs, limit) => {
        const rows = await this.dataSource.manager.find(AccessProfilePropagationEntity, {
          select: { id: true },
          where: { status: 'running', created_at: LessThan(new Date(Date.now() - olderThanMs)) },
          order: { created_at: 'ASC' },
          take: limit,
        });
        return rows.map((r) => ({ propagation_id: r.id }));
      },
    });
  }

  @JobHandler(ACCESS_PROFILE_JOBS.propagate)
  async propagate(
    payload: JobPayloads['access-profiles.propagate'],
    context: JobContext,
  ): Promise<PropagationResult | null> {
    const row = await this.dataSource.manager.findOneBy(AccessProfilePropagationEntity, {
      id: payload.propagation_id,
    });
    if (!row) return null;
    if (row.status !== 'running') return row.result;
    try {
      return await this.run(row, context);
    } catch (error) {
      if (context.attempt >= ACCESS_PROFILE_JOB_SETTINGS['access-profiles.propagate'].attempts)
        await this.fail(row, error);
      throw error;
    }
  }

  private async run(row: AccessProfilePropagationEntity, context: JobContext): Promise<PropagationResult> {
    const m = this.dataSource.manager;
    const template = await m.findOneBy(AccessProfileEntity, { id: row.access_profile_id });
    if (!template) throw new Error(`access profile ${row.access_profile_id} no longer exists`);
    const selected = await selectUsers(m, row.access_profile_id, row.request);
    const recorded = await m.find(AccessProfilePropagationUserEntity, {
      select: { user_id: true, outcome: true, key_synced: true },
      where: { propagation_id: row.id },
    });
    const done = new Set(recorded.map((r) => r.user_id));
    const remaining = selected.filter((id) => !done.has(id));
    const progress = { processed: done.size, total: done.size + remaining.length };
    await m.update(AccessProfilePropagationEntity, { id: row.id }, progress);
    await context.updateProgress(progress);
    this.logger.info(
      { propagation_id: row.id, attempt: context.attempt, ...progress },
      recorded.length ? 'propagation resumed' : 'propagation started',
    );

    const resets = new ResetBatch(this.managedKeys);
    const poolSize = Number((this.dataSource.options as { poolSize?: number }).poolSize ?? 1);
    const batchSize = poolSize > 1 ? BATCH_SIZE : EMBEDDED_BATCH_SIZE;
    // Affected users of an earlier attempt whose keys were not rewritten (it died between both transactions).
    const unsynced = recorded.filter((r) => r.outcome === 'affected' && !r.key_synced).map((r) => r.user_id);
    for (const batch of chunks(unsynced, batchSize)) await this.syncKeysOfBatch(row, batch, resets);
    const batches = chunks(remaining, batchSize);
    let lastReport = Date.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batches.length) {
        context.signal?.throwIfAborted();
        const batch = batches[next++]!;
        await this.applyToBatch(row, template, batch, resets);
        progress.processed += batch.length;
        // Let requests in between batches: an embedded database answering in the same thread resolves every query
        // at once, and the loop would otherwise hold the event loop until the last user.
        await new Promise((resolve) => setImmediate(resolve));
        if (Date.now() - lastReport >= PROGRESS_EVERY_MS) {
          lastReport = Date.now();
          await m.update(AccessProfilePropagationEntity, { id: row.id }, { processed: progress.processed });
          await context.updateProgress({ ...progress });
        }
      }
    };
    const concurrency = Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(poolSize / 2)));
    await Promise.all(Array.from({ length: concurrency }, worker));
    await resets.flush();
    return this.finish(row, context);
  }

  /**
   * A batch of users in two transactions: (1) lock their copies, record every user's outcome (users an earlier
   * attempt recorded are left alone) and update the affected copies in one statement; (2) rewrite the affected users'
   * managed keys (ManagedKeyWriter.writeMany) and mark their outcomes synced. If a transaction fails (the database
   * refused one user's row), its users go through the per-user path, so each failure is counted for its user alone.
   */
  private async applyToBatch(
    row: AccessProfilePropagationEntity,
    template: AccessProfileEntity,
    userIds: readonly string[],
    resets: ResetBatch,
  ): Promise<void> {
    const { fields, reset_usage } = row.request;
    let affected: string[];
    try {
      affected = await this.dataSource.transaction(async (m) => {
        const copies = await m.find(AccessProfileCopyEntity, {
          where: { user_id: In([...userIds]), parent_profile_id: row.access_profile_id },
          order: { id: 'ASC' },
          lock: { mode: 'pessimistic_write' },
        });
        const copyOf = new Map(copies.map((c) => [c.user_id, c]));
        const plans = new Map(
          userIds.map((id) => [id, planCopy(template, copyOf.get(id) ?? null, { fields, resetUsage: reset_usage })]),
        );
        // The outcomes first: users another attempt recorded are not ours (their row wins), and are left alone.
        const inserted = await m
          .createQueryBuilder()
          .insert()
          .into(AccessProfilePropagationUserEntity)
          .values(
            [...plans].map(([userId, plan]) => ({
              propagation_id: row.id,
              user_id: userId,
              outcome: plan.outcome,
              key_synced: false,
              message: plan.outcome === 'affected' ? null : plan.message,
            })),
          )
          .orIgnore()
          .returning(['user_id'])
          .updateEntity(false)
          .execute();
        const ours = new Set((inserted.raw as { user_id: string }[]).map((r) => r.user_id));
        const updates = [];
        for (const [userId, plan] of plans) {
          if (plan.outcome !== 'affected' || !ours.has(userId)) continue;
          updates.push({ id: copyOf.get(userId)!.id, ...Object.fromEntries(fields.map((f) => [f, plan.fields[f]])) });
        }
        await bulkUpdate(m, 'access_profile_copies', 'integer', copyColumns(fields), updates);
        return [...plans].filter(([id, plan]) => plan.outcome === 'affected' && ours.has(id)).map(([id]) => id);
      });
    } catch (error) {
      this.logger.debug({ propagation_id: row.id, err: errorMessage(error) }, 'batch refused, one user at a time');
      for (const userId of userIds) await this.applyToUser(row, template, userId, resets);
      return;
    }
    await this.syncKeysOfBatch(row, affected, resets);
  }

  /** The key half of a batch: every managed key of these users' copies, in one transaction; else user by user. */
  private async syncKeysOfBatch(
    row: AccessProfilePropagationEntity,
    userIds: readonly string[],
    resets: ResetBatch,
  ): Promise<void> {
    if (!userIds.length) return;
    try {
      const toReset = await this.dataSource.transaction(async (m) => {
        const copies = await m.find(AccessProfileCopyEntity, {
          where: { user_id: In([...userIds]), parent_profile_id: row.access_profile_id },
        });
        if (copies.length !== userIds.length) throw new Error('a copy of the batch no longer exists');
        const keys = await m.find(VirtualKeyEntity, {
          select: { id: true, access_profile_copy_id: true },
          where: { access_profile_copy_id: In(copies.map((c) => c.id)) },
          order: { id: 'ASC' },
        });
        const fieldsOf = new Map(copies.map((c) => [c.id, profileFieldsOf(c)]));
        const written = await this.managedKeys.writeMany(
          m,
          keys.map((k) => ({ virtualKeyId: k.id, fields: fieldsOf.get(k.access_profile_copy_id!)! })),
          { resetUsage: row.request.reset_usage },
        );
        await m.update(
          AccessProfilePropagationUserEntity,
          { propagation_id: row.id, user_id: In([...userIds]) },
          { key_synced: true, message: null },
        );
        return written;
      });
      await resets.add([toReset], userIds.length);
    } catch (error) {
      this.logger.debug({ propagation_id: row.id, err: errorMessage(error) }, 'batch key sync refused, one at a time');
      for (const userId of userIds) await this.syncKeys(row, userId, resets);
    }
  }

  /** Copy change and outcome in one transaction; then the keys. A copy that cannot change fails alone. */
  private async applyToUser(
    row: AccessProfilePropagationEntity,
    template: AccessProfileEntity,
    userId: string,
    resets: ResetBatch,
  ): Promise<void> {
    const { fields, reset_usage } = row.request;
    let affected: boolean;
    try {
      affected = await this.dataSource.transaction(async (m) => {
        const copy = await m.findOne(AccessProfileCopyEntity, {
          where: { user_id: userId, parent_profile_id: row.access_profile_id },
          lock: { mode: 'pessimistic_write' },
        });
        const plan = planCopy(template, copy, { fields, resetUsage: reset_usage });
        // The outcome first: a second runner on this user hits the primary key before changing anything.
        await m.insert(AccessProfilePropagationUserEntity, {
          propagation_id: row.id,
          user_id: userId,
          outcome: plan.outcome,
          key_synced: false,
          message: plan.outcome === 'affected' ? null : plan.message,
        });
        if (plan.outcome !== 'affected') return false;
        const changed = Object.fromEntries(fields.map((f) => [f, plan.fields[f]])) as Partial<ProfileFields>;
        await m.update(AccessProfileCopyEntity, { id: copy!.id }, changed);
        return true;
      });
    } catch (error) {
      if (isUniqueViolation(error, OUTCOME_KEY)) return;
      // The database refused this user's change (a constraint, a trigger): rolled back, so only the outcome is kept.
      await this.dataSource
        .createQueryBuilder()
        .insert()
        .into(AccessProfilePropagationUserEntity)
        .values({
          propagation_id: row.id,
          user_id: userId,
          outcome: 'failed',
          key_synced: false,
          message: errorMessage(error).slice(0, 1000),
        })
        .orIgnore()
        .execute();
      return;
    }
    if (affected) await this.syncKeys(row, userId, resets);
  }

  /**
   * Rewrites every managed key of the user's copy from the copy, and marks the outcome synced, in one transaction.
   * A failure is kept as the outcome's message (a `vk_sync_errors` entry); the user stays affected.
   */
  private async syncKeys(row: AccessProfilePropagationEntity, userId: string, resets: ResetBatch): Promise<void> {
    const outcome = { propagation_id: row.id, user_id: userId };
    try {
      const toReset = await this.dataSource.transaction(async (m) => {
        const copy = await m.findOneByOrFail(AccessProfileCopyEntity, {
          user_id: userId,
          parent_profile_id: row.access_profile_id,
        });
        const keys = await m.find(VirtualKeyEntity, {
          select: { id: true },
          where: { access_profile_copy_id: copy.id },
          order: { id: 'ASC' },
        });
        const fields = profileFieldsOf(copy);
        const written = await this.managedKeys.writeMany(
          m,
          keys.map((k) => ({ virtualKeyId: k.id, fields })),
          { resetUsage: row.request.reset_usage },
        );
        await m.update(AccessProfilePropagationUserEntity, outcome, { key_synced: true, message: null });
        return written;
      });
      await resets.add([toReset]);
    } catch (error) {
      const message = errorMessage(error).slice(0, 1000);
      this.logger.warn({ propagation_id: row.id, user_id: userId, err: message }, 'managed key sync failed');
      await this.dataSource.manager.update(AccessProfilePropagationUserEntity, outcome, { message });
    }
  }

  private async finish(row: AccessProfilePropagationEntity, context: JobContext): Promise<PropagationResult> {
    const outcomes = await this.dataSource.manager.find(AccessProfilePropagationUserEntity, {
      where: { propagation_id: row.id },
      order: { user_id: 'ASC' },
    });
    const result = summarise(row.request.fields, outcomes, true);
    const finished = { processed: outcomes.length, total: outcomes.length };
    await this.dataSource.manager.update(
      AccessProfilePropagationEntity,
      { id: row.id, status: 'running' },
      { status: 'completed', result, ...finished, finished_at: new Date() },
    );
    await context.updateProgress(finished);
    await this.audit.completed(row, result);
    this.logger.info(
      {
        propagation_id: row.id,
        affected: result.affected_users,
        failed: result.failed_users,
        skipped: result.skipped_users,
      },
      'propagation completed',
    );
    return result;
  }

  private async fail(row: AccessProfilePropagationEntity, error: unknown): Promise<void> {
    const message = errorMessage(error).slice(0, 1000);
    await this.dataSource.manager.update(
      AccessProfilePropagationEntity,
      { id: row.id, status: 'running' },
      { status: 'failed', error: message, finished_at: new Date() },
    );
    await this.audit.failed(row, message);
  }
}
