import { ApiProperty, ApiSchema } from '@nestjs/swagger';

export const SETUP_TOKEN_SOURCES = ['file', 'config', 'none'] as const;
export type SetupTokenSourceView = (typeof SETUP_TOKEN_SOURCES)[number];

@ApiSchema({ name: 'LoginResponse' })
export class LoginResponseDto {
  @ApiProperty({ description: 'What happened', example: 'Login successful' })
  message: string;

  @ApiProperty({
    description: 'Opaque session token (also set as the HttpOnly gateway_session cookie); send it as Bearer',
  })
  token: string;

  @ApiProperty({ description: 'When the session expires (RFC 3339 UTC)', format: 'date-time' })
  expires_at: string;
}

@ApiSchema({ name: 'AuthStatus' })
export class AuthStatusDto {
  @ApiProperty({ description: 'Dashboard auth is enabled and an admin account is configured' })
  is_auth_enabled: boolean;

  @ApiProperty({ description: 'The request carries a valid management credential (session, key, setup session)' })
  has_valid_token: boolean;

  @ApiProperty({ description: 'How the dashboard signs in', enum: ['none', 'password'] })
  auth_type: 'none' | 'password';

  @ApiProperty({ description: 'The open-source setup lock is in force: management routes need the setup token' })
  setup_required: boolean;

  @ApiProperty({
    enum: SETUP_TOKEN_SOURCES,
    nullable: true,
    description:
      'While the setup lock is in force, where its token comes from (never the token): `file`, generated on the ' +
      'first start into `<app-dir>/setup-token` (the start-up log line names the path); `config`, set by ' +
      '`setup_token` or GATEWAY_SETUP_TOKEN; `none`, no token (set one, or enable dashboard auth). Otherwise null',
  })
  setup_token_source: SetupTokenSourceView | null;
}
