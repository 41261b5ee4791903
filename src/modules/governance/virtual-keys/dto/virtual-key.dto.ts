import { PaginationDto } from '../../../../core/http/paging.dto.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsBoolean,
  IsNotEmpty,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
} from 'class-validator';
import { DURATION_PATTERN } from '../../../../core/config/gateway-config.js';
import { RFC3339 } from '../../shared/ids.js';
import { IsNullable, IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';

@ApiSchema({ name: 'VirtualKeyCreateRequest' })
export class CreateVirtualKeyDto {
  @ApiProperty({ description: 'Unique name', maxLength: 255, example: 'team-a-prod' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ default: true, description: 'An inactive key is refused with 403 virtual_key_blocked' })
  @IsOptionalNonNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'RFC 3339 expiry, in the future; absent: never expires' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  @Matches(RFC3339, { message: 'expires_at must be an RFC 3339 date-time' })
  expires_at?: string;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsNullable()
  @IsUUID('all', { message: 'team_id must be a UUID' })
  team_id?: string | null;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsNullable()
  @IsUUID('all', { message: 'customer_id must be a UUID' })
  customer_id?: string | null;
}

/** PUT changes the fields it carries; null clears `expires_at`, `team_id` and `customer_id`. */
@ApiSchema({ name: 'VirtualKeyUpdateRequest' })
export class UpdateVirtualKeyDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional()
  @IsOptionalNonNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String })
  @IsNullable()
  @IsString()
  @MaxLength(64)
  @Matches(RFC3339, { message: 'expires_at must be an RFC 3339 date-time' })
  expires_at?: string | null;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsNullable()
  @IsUUID('all', { message: 'team_id must be a UUID' })
  team_id?: string | null;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsNullable()
  @IsUUID('all', { message: 'customer_id must be a UUID' })
  customer_id?: string | null;
}

@ApiSchema({ name: 'VirtualKeyRotateRequest' })
export class RotateVirtualKeyDto {
  @ApiPropertyOptional({
    description: 'How long the old value keeps working (`30s`, `5m`, `1h`); absent: it stops at once',
    example: '5m',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(32)
  @Matches(DURATION_PATTERN, { message: 'grace_period must be a duration such as 30s, 5m or 1h' })
  grace_period?: string;
}

@ApiSchema({ name: 'VirtualKeyBulkRotateRequest' })
export class BulkRotateVirtualKeysDto extends RotateVirtualKeyDto {
  @ApiProperty({ type: [String], description: 'Virtual key ids; all are rotated or none', maxItems: 1000 })
  @IsStringList({ maxItems: 1000, maxLength: 64 })
  @ArrayNotEmpty()
  @ArrayUnique({ message: 'ids must not contain duplicates' })
  ids: unknown[];
}

@ApiSchema({ name: 'VirtualKey' })
export class VirtualKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiPropertyOptional({ description: 'The key (`sk-gw-` + 32 characters); only in create and rotate responses' })
  value?: string;

  @ApiProperty()
  is_active: boolean;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  expires_at: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  team_id: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  customer_id: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'VirtualKeyList' })
export class VirtualKeyListDto {
  @ApiProperty({ type: [VirtualKeyDto] })
  virtual_keys: VirtualKeyDto[];

  @ApiProperty({ description: 'Items in this page' })
  count: number;

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}

@ApiSchema({ name: 'VirtualKeyOperationResponse' })
export class VirtualKeyOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: VirtualKeyDto })
  virtual_key: VirtualKeyDto;
}

@ApiSchema({ name: 'VirtualKeyBulkRotateResponse' })
export class BulkRotateResponseDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: [VirtualKeyDto], description: 'Rotated keys with their new values, in request order' })
  virtual_keys: VirtualKeyDto[];
}
