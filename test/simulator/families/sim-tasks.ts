import { newId } from '../answer.js';

/**
 * The asynchronous tasks of the task families (replicate, runway): created by a create call, advanced by each status
 * read. What a task does is read from its prompt, so a test scripts it through the gateway without a scenario:
 *
 * - `[sim:polls=N]`: pending for the first N status reads, finished on the next (default 2);
 * - `[sim:fail=<message>]`: fails (on the read after the pending ones) with that message;
 * - `[sim:never]`: pending forever.
 */

export type TaskEnd = { kind: 'succeed' } | { kind: 'fail'; message: string } | { kind: 'never' };

export interface SimTask {
  id: string;
  created: string;
  /** Status reads left before the task ends. */
  pendingReads: number;
  end: TaskEnd;
  /** Status reads so far. */
  reads: number;
  /** The family's finished payload, computed at creation. */
  output: unknown;
}

const DEFAULT_PENDING_READS = 2;
const tasks = new Map<string, SimTask>();

export function createTask(prefix: string, prompt: string, output: unknown): SimTask {
  const polls = /\[sim:polls=(\d+)\]/.exec(prompt);
  const fail = /\[sim:fail=([^\]]*)\]/.exec(prompt);
  const end: TaskEnd = prompt.includes('[sim:never]')
    ? { kind: 'never' }
    : fail
      ? { kind: 'fail', message: fail[1]! }
      : { kind: 'succeed' };
  const task: SimTask = {
    id: newId(prefix),
    created: new Date().toISOString(),
    pendingReads: polls ? Number(polls[1]) : DEFAULT_PENDING_READS,
    end,
    reads: 0,
    output,
  };
  tasks.set(task.id, task);
  return task;
}

export function findTask(id: string): SimTask | undefined {
  return tasks.get(id);
}

/** One status read: 'pending' while reads are left (forever for `never`), else how the task ended. */
export function readTask(task: SimTask): 'pending' | 'succeeded' | 'failed' {
  task.reads += 1;
  if (task.end.kind === 'never' || task.reads <= task.pendingReads) return 'pending';
  return task.end.kind === 'fail' ? 'failed' : 'succeeded';
}
