import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { isId } from '../../../../core/validation/ids.js';
import { IsOptionalNonNull, ValidatesWith } from '../../../../core/validation/field.decorators.js';

/** Most roles one request attaches. */
export const MAX_ROLES_PER_ATTACH = 100;

/** Why `value` is not a non-empty list of distinct role ids, naming the item at fault (`[2] must be a UUID`). */
function roleIdsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return ' must be an array of role ids';
  if (value.length === 0) return ' must name at least one role';
  if (value.length > MAX_ROLES_PER_ATTACH) return ` must have at most ${MAX_ROLES_PER_ATTACH} items`;
  const seen = new Map<string, number>();
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string' || !isId(item)) return `[${i}] must be a UUID`;
    const first = seen.get(item.toLowerCase());
    if (first !== undefined) return `[${i}] repeats role_ids[${first}]`;
    seen.set(item.toLowerCase(), i);
  }
  return undefined;
}

@ApiSchema({ name: 'AttachAccessProfileRolesRequest' })
export class AttachRolesDto {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_ROLES_PER_ATTACH,
    description: 'Existing roles, distinct; a role already attached takes the new `is_default`',
  })
  @ValidatesWith('isRoleIdList', roleIdsProblem)
  role_ids: string[];

  @ApiPropertyOptional({
    default: false,
    description: 'Users who gain one of these roles (created with it, or moved to it) get a copy of the profile',
  })
  @IsOptionalNonNull()
  @IsBoolean({ message: 'is_default must be a boolean' })
  is_default?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      'Also give a copy now to every user holding one of these roles who has none (assigned via the role); the profile must be active',
  })
  @IsOptionalNonNull()
  @IsBoolean({ message: 'apply_to_existing must be a boolean' })
  apply_to_existing?: boolean;
}

@ApiSchema({ name: 'AttachAccessProfileRolesResponse' })
export class AttachRolesResponseDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: 'integer', description: 'Users who got a copy through `apply_to_existing`' })
  users_applied: number;
}
