import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { IsNullable, IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';

@ApiSchema({ name: 'UserCreateRequest' })
export class CreateUserDto {
  @ApiProperty({ description: 'Display name', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiProperty({ description: 'Login email, unique (case-insensitive)', format: 'email', maxLength: 320 })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(320)
  email: string;

  @ApiProperty({ description: 'Role granting the user its permissions', format: 'uuid', maxLength: 64 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  role_id: string;

  @ApiPropertyOptional({ description: 'Team the user belongs to', type: String, format: 'uuid', nullable: true })
  @IsNullable()
  @IsUUID('all', { message: 'team_id must be a UUID' })
  team_id?: string | null;

  @ApiPropertyOptional({
    description: 'Password for dashboard login (write-only; stored as an scrypt hash)',
    minLength: 8,
    maxLength: 256,
    writeOnly: true,
  })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  password?: string;
}

/** PUT changes the fields it carries and keeps the others. `team_id: null` clears the team. */
@ApiSchema({ name: 'UserUpdateRequest' })
export class UpdateUserDto {
  @ApiPropertyOptional({ description: 'Display name', maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ description: 'Login email, unique (case-insensitive)', format: 'email', maxLength: 320 })
  @IsOptionalNonNull()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(320)
  email?: string;

  @ApiPropertyOptional({ description: 'Role granting the user its permissions', format: 'uuid', maxLength: 64 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  role_id?: string;

  @ApiPropertyOptional({
    description: 'Team the user belongs to; null clears it',
    type: String,
    format: 'uuid',
    nullable: true,
  })
  @IsNullable()
  @IsUUID('all', { message: 'team_id must be a UUID' })
  team_id?: string | null;

  @ApiPropertyOptional({ description: 'New password (write-only)', minLength: 8, maxLength: 256, writeOnly: true })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  password?: string;
}

@ApiSchema({ name: 'User' })
export class UserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({ format: 'uuid' })
  role_id: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  team_id: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'UserList' })
export class UserListDto {
  @ApiProperty({ type: [UserDto] })
  users: UserDto[];

  @ApiProperty({ description: 'Users on this page' })
  count: number;

  @ApiProperty({ type: 'integer', description: 'Users matching the filters, across all pages' })
  total_count: number;
}

@ApiSchema({ name: 'CallerIdentity' })
export class CallerIdentityDto {
  @ApiProperty({
    enum: ['local_admin', 'user', 'management_key', 'setup'],
    description: 'What kind of caller this is',
  })
  kind: 'local_admin' | 'user' | 'management_key' | 'setup';

  @ApiProperty({
    enum: ['basic', 'legacy_bearer', 'session', 'management_key', 'setup_token', 'setup_session', 'auth_disabled'],
    description: 'How the caller proved who it is (as the audit log records it)',
  })
  auth_method: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The user or management key id (`admin` for the local admin, null for the setup caller)',
  })
  id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The name the audit log records for the caller (a user’s email, a key’s name, the admin username)',
  })
  name: string | null;
}

@ApiSchema({ name: 'CallerPermissions' })
export class MyPermissionsDto {
  @ApiProperty({ type: CallerIdentityDto, description: 'Who the caller is' })
  principal: CallerIdentityDto;

  @ApiProperty({ type: [String], description: 'The caller’s own permissions, sorted `Resource:Operation`' })
  permissions: string[];

  @ApiProperty({ description: 'True for the local admin (and any caller while permissions are not enforced)' })
  is_admin: boolean;
}
