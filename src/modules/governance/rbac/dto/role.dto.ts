import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

@ApiSchema({ name: 'RoleCreateRequest' })
export class CreateRoleDto {
  @ApiProperty({ description: 'Unique role name', maxLength: 255, example: 'agent-operator' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ description: 'What the role is for', maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiProperty({
    type: [String],
    description: 'Granted permissions, each `Resource:Operation` (Operation is View, Create, Update or Delete)',
    example: ['AgentGateway:View', 'AgentGateway:Create'],
    maxItems: 200,
  })
  @IsArray()
  @ArrayMaxSize(200)
  permissions: unknown[];
}

/** PUT changes the fields it carries and keeps the others. */
@ApiSchema({ name: 'RoleUpdateRequest' })
export class UpdateRoleDto {
  @ApiPropertyOptional({ description: 'Unique role name', maxLength: 255 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ description: 'What the role is for', maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Replaces the granted permissions, each `Resource:Operation`',
    maxItems: 200,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
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

@ApiSchema({ name: 'RoleList' })
export class RoleListDto {
  @ApiProperty({ type: [RoleDto] })
  roles: RoleDto[];

  @ApiProperty()
  count: number;
}
