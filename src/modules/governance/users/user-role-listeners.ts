import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A user was created with a role, or their role changed. */
export interface UserRoleChange {
  user_id: string;
  email: string;
  /** Null when the user was just created. */
  previous_role_id: string | null;
  role_id: string;
}

/** Work a listener leaves for after the commit (cache invalidation, counter resets). */
export type AfterUserRoleCommit = () => Promise<void>;

/**
 * Runs inside the transaction that saves the user: a failure refuses the whole change (nothing of the user is
 * written). Returns work to run once the transaction committed, if any.
 */
export type UserRoleListener = (m: EntityManager, change: UserRoleChange) => Promise<AfterUserRoleCommit | undefined>;

/**
 * Who reacts to users' role changes. Modules built on governance (access profiles: a role's default profiles) register
 * here when they start, so governance never imports them (no module cycle).
 */
@Injectable()
export class UserRoleListeners {
  private readonly listeners: UserRoleListener[] = [];

  /** Adds a listener; the returned function removes it. */
  register(listener: UserRoleListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Runs every listener in the caller's transaction, in registration order; returns their after-commit work. */
  async notify(m: EntityManager, change: UserRoleChange): Promise<AfterUserRoleCommit[]> {
    const after: AfterUserRoleCommit[] = [];
    for (const listener of this.listeners) {
      const work = await listener(m, change);
      if (work) after.push(work);
    }
    return after;
  }
}
