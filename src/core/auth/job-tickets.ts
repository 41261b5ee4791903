import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';

/**
 * A queued job's replayed request carries a ticket (`JOB_TICKET_HEADER`) instead of a credential. Only requests this
 * process injected into itself hold a ticket: it is random, single-use and lives in memory, so it cannot be guessed or
 * replayed.
 */

/** Who a replayed request runs as, and what it reports back. */
export interface JobTicket {
  /** The job's id (for logs). */
  jobId: string;
  /** The virtual key the job was submitted with, by id (its value is never stored), or null for an anonymous job. */
  virtualKeyId: string | null;
  /** Awaited just before the request goes to a provider (the job records that it may have been billed). */
  dispatched(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on a job's replayed request (docs/async.md). */
    jobTicket?: JobTicket;
  }
}

/** Tickets of the job requests this process is replaying. */
@Injectable()
export class JobTickets {
  private readonly open = new Map<string, JobTicket>();

  issue(ticket: JobTicket): string {
    const value = randomBytes(32).toString('base64url');
    this.open.set(value, ticket);
    return value;
  }

  /** The ticket, removed: a second use of the same value finds nothing. */
  take(value: string): JobTicket | undefined {
    const ticket = this.open.get(value);
    if (ticket) this.open.delete(value);
    return ticket;
  }

  /** Drops a ticket that was never presented (the replay failed before authentication). */
  revoke(value: string): void {
    this.open.delete(value);
  }
}
