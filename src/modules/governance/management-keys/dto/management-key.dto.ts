import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { RFC3339 } from '../../../../core/validation/ids.js';
import { IsNullable, IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';

/** Most scopes a key holds (there are far fewer distinct permissions). */
const MAX_SCOPES = 200;

@ApiSchema({ name: 'ManagementKeyCreateRequest' })
export class CreateManagementKeyDto {
  @ApiProperty({ description: 'What the key is for', maxLength: 255, example: 'ci-deployer' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiProperty({
    type: [String],
    description:
      'Permissions of the key, each `Resource:Operation`. Enterprise: at most the creator’s own permissions.',
    example: ['AgentGateway:View'],
    maxItems: MAX_SCOPES,
  })
  @IsStringList({ maxItems: MAX_SCOPES, maxLength: 128 })
  scopes: unknown[];

  @ApiPropertyOptional({ format: 'date-time', description: 'RFC 3339 expiry, in the future; absent: never expires' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  @Matches(RFC3339, { message: 'expires_at must be an RFC 3339 date-time' })
  expires_at?: string;
}

/** PUT changes the fields it carries; `expires_at: null` removes the expiry. The key value never changes. */
@ApiSchema({ name: 'ManagementKeyUpdateRequest' })
export class UpdateManagementKeyDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ type: [String], description: 'Replaces the scopes', maxItems: MAX_SCOPES })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_SCOPES, maxLength: 128 })
  scopes?: unknown[];

  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String, description: 'RFC 3339, or null' })
  @IsNullable()
  @IsString()
  @MaxLength(64)
  @Matches(RFC3339, { message: 'expires_at must be an RFC 3339 date-time' })
  expires_at?: string | null;
}

@ApiSchema({ name: 'ManagementKey' })
export class ManagementKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [String], description: 'Sorted `Resource:Operation` scopes' })
  scopes: string[];

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  expires_at: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Last authentication (±1 minute)' })
  last_used_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

@ApiSchema({ name: 'ManagementKeyCreateResponse' })
export class CreatedManagementKeyDto extends ManagementKeyDto {
  @ApiProperty({ description: 'The key (`gwm_` + 40 characters). Shown only in this response.' })
  value: string;
}

@ApiSchema({ name: 'ManagementKeyList' })
export class ManagementKeyListDto {
  @ApiProperty({ type: [ManagementKeyDto] })
  management_keys: ManagementKeyDto[];

  @ApiProperty()
  count: number;
}
