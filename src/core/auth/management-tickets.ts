import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Clock } from '../clock/clock.js';
import { GatewayConfig } from '../config/gateway-config.js';
import { REDIS } from '../redis/redis.module.js';
import { newOpaqueToken, sha256Hex } from './credentials.util.js';
import type { AuthMethod, Principal } from './principal.js';

/** How long a ticket may wait for its use (decisions.md: 30 s, one use). */
export const TICKET_TTL_MS = 30_000;
/** Tickets one replica holds in memory (embedded mode); past it the oldest are forgotten. */
const MAX_MEMORY_TICKETS = 10_000;

/** A principal as a ticket stores it: the permissions as a list. */
interface StoredTicket {
  kind: Principal['kind'];
  authMethod: AuthMethod;
  id?: string;
  name?: string;
  permissions: string[] | 'all';
  sessionId?: string;
  /** Epoch ms by the gateway clock. */
  expiresAt: number;
}

/**
 * One-use tickets standing for a management caller: browsers cannot set headers on a WebSocket, so the dashboard
 * trades its credentials for a ticket (`POST /api/session/ws-ticket`) and opens `GET /ws?ticket=…` with it. A ticket
 * carries the caller's principal (its permissions as they were when it was issued), is stored by its SHA-256 only,
 * expires after 30 s by the gateway clock and is consumed by its first use. Shared through Redis in scale-out (a
 * ticket issued by one replica opens a socket on another; GETDEL makes the use atomic), in memory otherwise.
 */
@Injectable()
export class ManagementTickets {
  private readonly memory = new Map<string, StoredTicket>();
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis | null,
    private readonly clock: Clock,
    config: GatewayConfig,
  ) {
    this.prefix = `${config.redis_prefix}:ws-ticket:`;
  }

  async issue(principal: Principal): Promise<{ ticket: string; expiresAt: number }> {
    const ticket = newOpaqueToken();
    const expiresAt = this.clock.now() + TICKET_TTL_MS;
    const stored: StoredTicket = {
      kind: principal.kind,
      authMethod: principal.authMethod,
      ...(principal.id !== undefined ? { id: principal.id } : {}),
      ...(principal.name !== undefined ? { name: principal.name } : {}),
      permissions: principal.permissions === 'all' ? 'all' : [...principal.permissions],
      ...(principal.sessionId !== undefined ? { sessionId: principal.sessionId } : {}),
      expiresAt,
    };
    const key = sha256Hex(ticket);
    if (this.redis) {
      // Redis forgets it a little after the gateway clock would refuse it (the clock decides, Redis only cleans up).
      await this.redis.set(this.prefix + key, JSON.stringify(stored), 'PX', TICKET_TTL_MS + 5_000);
    } else {
      this.sweep();
      this.memory.set(key, stored);
    }
    return { ticket, expiresAt };
  }

  /** The ticket's principal, consumed; null when unknown, used already or expired. */
  async redeem(ticket: string): Promise<Principal | null> {
    const key = sha256Hex(ticket);
    let stored: StoredTicket | undefined;
    if (this.redis) {
      const raw = await this.redis.getdel(this.prefix + key);
      stored = raw === null ? undefined : (JSON.parse(raw) as StoredTicket);
    } else {
      stored = this.memory.get(key);
      this.memory.delete(key);
    }
    if (!stored || stored.expiresAt <= this.clock.now()) return null;
    return {
      kind: stored.kind,
      authMethod: stored.authMethod,
      ...(stored.id !== undefined ? { id: stored.id } : {}),
      ...(stored.name !== undefined ? { name: stored.name } : {}),
      permissions: stored.permissions === 'all' ? 'all' : new Set(stored.permissions),
      ...(stored.sessionId !== undefined ? { sessionId: stored.sessionId } : {}),
    };
  }

  /** Drops expired tickets, then the oldest while the map is full (a Map iterates in insertion order). */
  private sweep(): void {
    const now = this.clock.now();
    for (const [key, stored] of this.memory) {
      if (stored.expiresAt <= now || this.memory.size >= MAX_MEMORY_TICKETS) this.memory.delete(key);
      else break;
    }
  }
}
