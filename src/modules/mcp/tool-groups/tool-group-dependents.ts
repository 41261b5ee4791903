import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** How many objects of one kind reference a tool group (`label` names them: `access profile template(s)`). */
export interface ToolGroupReferenceCount {
  count: number;
  label: string;
}

/** Work a dependent leaves for after the commit (cache invalidation). */
export type AfterToolGroupCommit = () => Promise<void>;

/**
 * A module whose objects reference tool groups by id. Both hooks run inside the group's transaction, after the group
 * row is locked (`FOR UPDATE`): a failure refuses the whole change.
 */
export interface ToolGroupDependent {
  /** References that keep the group from being deleted. */
  references(m: EntityManager, groupId: string): Promise<ToolGroupReferenceCount[]>;
  /** The group's tools changed: bring what was derived from them up to date; returns work for after the commit. */
  toolsChanged(m: EntityManager, groupId: string): Promise<AfterToolGroupCommit | undefined>;
}

/**
 * Who references tool groups. Modules built on MCP (access profiles: templates and users' copies) register here when
 * they start, so the MCP module never imports them (no module cycle), as governance's UserRoleListeners.
 */
@Injectable()
export class ToolGroupDependents {
  private readonly dependents: ToolGroupDependent[] = [];

  /** Adds a dependent; the returned function removes it. */
  register(dependent: ToolGroupDependent): () => void {
    this.dependents.push(dependent);
    return () => {
      const at = this.dependents.indexOf(dependent);
      if (at >= 0) this.dependents.splice(at, 1);
    };
  }

  async references(m: EntityManager, groupId: string): Promise<ToolGroupReferenceCount[]> {
    const counts: ToolGroupReferenceCount[] = [];
    for (const d of this.dependents) counts.push(...(await d.references(m, groupId)));
    return counts.filter((c) => c.count > 0);
  }

  async toolsChanged(m: EntityManager, groupId: string): Promise<AfterToolGroupCommit[]> {
    const after: AfterToolGroupCommit[] = [];
    for (const d of this.dependents) {
      const work = await d.toolsChanged(m, groupId);
      if (work) after.push(work);
    }
    return after;
  }
}
