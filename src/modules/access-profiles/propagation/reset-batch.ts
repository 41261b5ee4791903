import type { RemovedLimits } from '../../governance/index.js';
import type { ManagedKeyWriter } from '../managed-key.writer.js';

/** Users whose key writes share one `afterCommit` (one invalidation message per replica instead of one per user). */
const USERS_PER_FLUSH = 100;

/**
 * The after-commit half of ManagedKeyWriter for many users: collects the counters each committed key write returned
 * and runs `afterCommit` once per USERS_PER_FLUSH users, and for the rest on `flush()`.
 */
export class ResetBatch {
  private pending: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
  private users = 0;

  constructor(private readonly writer: ManagedKeyWriter) {}

  /** Committed key writes of `users` users (one, or a batch). */
  async add(toReset: readonly RemovedLimits[], users = 1): Promise<void> {
    for (const r of toReset) {
      this.pending.budgetIds.push(...r.budgetIds);
      this.pending.rateLimitIds.push(...r.rateLimitIds);
    }
    this.users += users;
    if (this.users >= USERS_PER_FLUSH) await this.flush();
  }

  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = { budgetIds: [], rateLimitIds: [] };
    this.users = 0;
    await this.writer.afterCommit(batch);
  }
}
