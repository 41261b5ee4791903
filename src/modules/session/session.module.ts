import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthPorts } from '../../core/auth/auth-ports.js';
import { ExpiredRowsRegistry } from '../../core/maintenance/expired-rows.service.js';
import { DashboardSessionEntity } from './entities/dashboard-session.entity.js';
import { SetupSessionEntity } from './entities/setup-session.entity.js';
import { SessionController } from './session.controller.js';
import { SetupExchangeCheck } from './setup-exchange-check.js';
import { SessionService } from './session.service.js';

/** Dashboard login/logout, the setup-lock exchange, and the session tables (the guard's session verifier). */
@Module({
  imports: [TypeOrmModule.forFeature([DashboardSessionEntity, SetupSessionEntity])],
  controllers: [SessionController],
  providers: [SessionService, SetupExchangeCheck],
  exports: [SessionService],
})
export class SessionModule implements OnModuleInit {
  constructor(
    private readonly expiredRows: ExpiredRowsRegistry,
    ports: AuthPorts,
    sessions: SessionService,
  ) {
    // The guard verifies dashboard and setup sessions through this port.
    ports.provideSessions(sessions);
  }

  /** Expired sessions are purged by the periodic maintenance job. */
  onModuleInit(): void {
    this.expiredRows.register({ name: 'dashboard_sessions', table: 'dashboard_sessions', column: 'expires_at' });
    this.expiredRows.register({ name: 'setup_sessions', table: 'setup_sessions', column: 'expires_at' });
  }
}
