import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, type Repository } from 'typeorm';
import { AdminCredentialsService } from '../../core/auth/admin-credentials.service.js';
import { newOpaqueToken, sha256Hex } from '../../core/auth/credentials.util.js';
import { isDashboardAuthActive } from '../../core/auth/dashboard-auth.js';
import { AuthPorts } from '../../core/auth/auth-ports.js';
import type { Principal } from '../../core/auth/principal.js';
import type { SessionVerifier } from '../../core/auth/session-verifier.js';
import { parseDuration } from '../../core/config/duration.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { DashboardSessionEntity } from './entities/dashboard-session.entity.js';
import { SetupSessionEntity } from './entities/setup-session.entity.js';

export const SETUP_SESSION_TTL_MS = 12 * 3_600_000;
const DEFAULT_SESSION_TTL_MS = 24 * 3_600_000;

export interface IssuedSession {
  id: string;
  token: string;
  expiresAt: Date;
}

export type SessionSubject = { kind: 'admin'; username: string } | { kind: 'user'; userId: string; username: string };

/** Dashboard and setup sessions: opaque tokens, stored as SHA-256, expiring, revocable. */
@Injectable()
export class SessionService implements SessionVerifier {
  constructor(
    private readonly config: GatewayConfig,
    private readonly admin: AdminCredentialsService,
    @InjectRepository(DashboardSessionEntity) private readonly dashboard: Repository<DashboardSessionEntity>,
    @InjectRepository(SetupSessionEntity) private readonly setup: Repository<SetupSessionEntity>,
    private readonly ports: AuthPorts,
  ) {}

  get sessionTtlMs(): number {
    return parseDuration(this.config.auth_config.session_ttl) ?? DEFAULT_SESSION_TTL_MS;
  }

  async createDashboardSession(subject: SessionSubject): Promise<IssuedSession> {
    const token = newOpaqueToken();
    const now = new Date();
    const row: DashboardSessionEntity = {
      id: randomUUID(),
      token_hash: sha256Hex(token),
      subject_kind: subject.kind,
      user_id: subject.kind === 'user' ? subject.userId : null,
      username: subject.username,
      credential_stamp: subject.kind === 'admin' ? await this.admin.credentialStamp() : null,
      created_at: now,
      expires_at: new Date(now.getTime() + this.sessionTtlMs),
    };
    await this.dashboard.insert(row);
    return { id: row.id, token, expiresAt: row.expires_at };
  }

  async verifyDashboardSession(token: string): Promise<Principal | null> {
    const row = await this.dashboard.findOne({
      where: { token_hash: sha256Hex(token), expires_at: MoreThan(new Date()) },
    });
    if (!row) return null;
    if (row.subject_kind === 'admin') {
      // An admin session dies with the admin account it was opened for (auth disabled or username changed).
      if (!isDashboardAuthActive(this.config) || !this.admin.isAdminUsername(row.username)) return null;
      // ... and with the password it was opened under.
      const stamp = await this.admin.credentialStamp();
      if (!row.credential_stamp || row.credential_stamp !== stamp) {
        await this.dashboard.delete({ id: row.id });
        return null;
      }
      return this.admin.principal('session', row.id);
    }
    const identity = this.ports.identity;
    if (!row.user_id || !identity) return null;
    const user = await identity.loadUser(row.user_id);
    return user ? { ...user, authMethod: 'session', sessionId: row.id } : null;
  }

  async revokeDashboardSession(id: string): Promise<void> {
    await this.dashboard.delete({ id });
  }

  async revokeUserSessions(userId: string): Promise<number> {
    const result = await this.dashboard.delete({ subject_kind: 'user', user_id: userId });
    return result.affected ?? 0;
  }

  async createSetupSession(): Promise<IssuedSession> {
    const token = newOpaqueToken();
    const now = new Date();
    const row: SetupSessionEntity = {
      id: randomUUID(),
      token_hash: sha256Hex(token),
      created_at: now,
      expires_at: new Date(now.getTime() + SETUP_SESSION_TTL_MS),
    };
    await this.setup.insert(row);
    return { id: row.id, token, expiresAt: row.expires_at };
  }

  async verifySetupSession(token: string): Promise<string | null> {
    const row = await this.setup.findOne({
      where: { token_hash: sha256Hex(token), expires_at: MoreThan(new Date()) },
    });
    return row?.id ?? null;
  }

  async revokeSetupSession(id: string): Promise<void> {
    await this.setup.delete({ id });
  }
}
