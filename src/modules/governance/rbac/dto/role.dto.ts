import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';

/** Most permissions a role grants (there are far fewer distinct permissions). */
const MAX_PERMISSIONS = 200;

@ApiSchema({ name: 'RoleCreateRequest' })
export class CreateRoleDto {
  @ApiProperty({ description: 'Unique role name', maxLength: 255, example: 'agent-operator' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ description: 'What the role is for', maxLength: 1000 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiProperty({
    type: [String],
    description: 'Granted permissions, each `Resource:Operation` (Operation is View, Create, Update or Delete)',
    example: ['AgentGateway:View', 'AgentGateway:Create'],
    maxItems: MAX_PERMISSIONS,
  })
  @IsStringList({ maxItems: MAX_PERMISSIONS, maxLength: 128 })
  permissions: unknown[];
}

/** PUT changes the fields it carries and keeps the others. */
@ApiSchema({ name: 'RoleUpdateRequest' })
export class UpdateRoleDto {
  @ApiPropertyOptional({ description: 'Unique role name', maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ description: 'What the role is for', maxLength: 1000 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Replaces the granted permissions, each `Resource:Operation`',
    maxItems: MAX_PERMISSIONS,
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_PERMISSIONS, maxLength: 128 })
  permissions?: unknown[];
}

@ApiSchema({ name: 'Role' })
export class RoleDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: [String], description: 'Sorted `Resource:Operation` permissions' })
  permissions: unknown[];

  @ApiProperty({ description: 'Built-in roles (admin, developer, viewer) cannot be changed or deleted' })
  is_builtin: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'RoleListItem' })
export class RoleListItemDto extends RoleDto {
  @ApiProperty({ type: 'integer', description: 'Users holding this role' })
  user_count: number;
}

@ApiSchema({ name: 'RoleList' })
export class RoleListDto {
  @ApiProperty({ type: [RoleListItemDto] })
  roles: RoleListItemDto[];

  @ApiProperty()
  count: number;
}
