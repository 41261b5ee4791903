import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminCredentialsService } from '../../core/auth/admin-credentials.service.js';
import { SESSION_COOKIE, SETUP_SESSION_COOKIE } from '../../core/auth/credentials.util.js';
import { isDashboardAuthActive, isSetupLockActive } from '../../core/auth/dashboard-auth.js';
import { AuthPorts } from '../../core/auth/auth-ports.js';
import { CredentialThrottle } from '../../core/auth/credential-throttle.js';
import { CurrentPrincipal, type Principal } from '../../core/auth/principal.js';
import { RequestAuthenticator } from '../../core/auth/request-authenticator.service.js';
import { Authenticated, Public, RouteCredential } from '../../core/auth/route-access.decorator.js';
import { isConfigKeyGiven } from '../../core/config/config.loader.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { ApiErrorResponses } from '../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { LoginDto } from './dto/login.dto.js';
import { MessageResponseDto } from '../../core/http/message-response.dto.js';
import { AuthStatusDto, LoginResponseDto, type SetupTokenSourceView } from './dto/session-responses.dto.js';
import { clearSessionCookie, setSessionCookie } from './session-cookies.js';
import { SETUP_EXCHANGE_CHECK } from './setup-exchange-check.js';
import { SessionService, type SessionSubject } from './session.service.js';

@ApiTags('Session')
@Controller('api/session')
export class SessionController {
  constructor(
    private readonly config: GatewayConfig,
    private readonly sessions: SessionService,
    private readonly throttle: CredentialThrottle,
    private readonly admin: AdminCredentialsService,
    private readonly authenticator: RequestAuthenticator,
    private readonly ports: AuthPorts,
  ) {}

  @Post('login')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'login',
    summary: 'Signs in with the admin username or a user email and a password; returns a session token',
    description:
      'Also sets the HttpOnly `gateway_session` cookie. Failed logins are throttled per username and per client ' +
      'address (429 `login_throttled` with Retry-After). 403 when dashboard auth is not enabled.',
  })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiErrorResponses(401, 403, 429)
  async login(
    @Body() body: LoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponseDto> {
    if (!isDashboardAuthActive(this.config)) {
      throw GatewayException.forbidden('dashboard_auth_disabled', 'Dashboard auth is not enabled on this gateway');
    }
    let subject: SessionSubject | null = null;
    const verified = await this.throttle.check(body.username, request.ip, async () => {
      subject = await this.authenticate(body.username, body.password);
      return subject !== null;
    });
    if (!verified || !subject)
      throw GatewayException.unauthorized('invalid_credentials', 'Invalid username or password');
    const session = await this.sessions.createDashboardSession(subject);
    setSessionCookie(request, reply, SESSION_COOKIE, session.token, session.expiresAt);
    return { message: 'Login successful', token: session.token, expires_at: session.expiresAt.toISOString() };
  }

  @Post('logout')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'logout',
    summary: 'Revokes the presenting session (dashboard or setup session) and clears its cookie',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  async logout(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponseDto> {
    if (principal.authMethod === 'session' && principal.sessionId) {
      await this.sessions.revokeDashboardSession(principal.sessionId);
      clearSessionCookie(request, reply, SESSION_COOKIE);
    } else if (principal.authMethod === 'setup_session' && principal.sessionId) {
      await this.sessions.revokeSetupSession(principal.sessionId);
      clearSessionCookie(request, reply, SETUP_SESSION_COOKIE);
    }
    return { message: 'Logged out' };
  }

  @Get('is-auth-enabled')
  @Public()
  @ApiOperation({
    operationId: 'getAuthStatus',
    summary: 'Whether dashboard auth is enabled, whether the caller is signed in, and whether setup is required',
  })
  @ApiOkResponse({ type: AuthStatusDto })
  async isAuthEnabled(@Req() request: FastifyRequest): Promise<AuthStatusDto> {
    const enabled = isDashboardAuthActive(this.config);
    const locked = isSetupLockActive(this.config);
    return {
      is_auth_enabled: enabled,
      has_valid_token: await this.authenticator.hasValidCredential(request),
      auth_type: enabled ? 'password' : 'none',
      setup_required: locked,
      setup_token_source: locked ? this.setupTokenSource() : null,
    };
  }

  /** A token the loader was not given came from `<app-dir>/setup-token` (prepareSetupToken, at start). */
  private setupTokenSource(): SetupTokenSourceView {
    if (!this.config.setup_token) return 'none';
    return isConfigKeyGiven(this.config, 'setup_token') ? 'config' : 'file';
  }

  @Post('setup')
  @RouteCredential(SETUP_EXCHANGE_CHECK, 'SetupToken')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'startSetupSession',
    summary: 'Exchanges the setup token (X-Gateway-Setup-Token) for the HttpOnly gateway_setup_session cookie',
    description:
      'Open-source setup lock only: 401 `setup_token_required` without the header, 403 `setup_token_invalid` when ' +
      'it is wrong, when no setup token is configured, or once dashboard auth is enabled. The cookie lasts 12 h. ' +
      'The token is checked before the body is read.',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  async setup(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponseDto> {
    // The route gate ran SetupExchangeCheck: the lock is on and the token is right.
    const session = await this.sessions.createSetupSession();
    setSessionCookie(request, reply, SETUP_SESSION_COOKIE, session.token, session.expiresAt);
    return { message: 'Setup session started' };
  }

  /** The admin account first; any other username is a user's email. */
  private async authenticate(username: string, password: string): Promise<SessionSubject | null> {
    if (this.admin.isAdminUsername(username)) {
      return (await this.admin.verify(username, password)) ? { kind: 'admin', username } : null;
    }
    const user = await this.ports.identity?.verifyUserPassword(username, password);
    return user ? { kind: 'user', userId: user.id, username } : null;
  }
}
