import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { isUUID, IsBoolean } from 'class-validator';
import { IsOptionalNonNull, ValidatesWith } from '../../../../core/validation/field.decorators.js';
import { INPUT_LIMITS } from '../../../../core/validation/input-limits.js';
import { PROPAGATION_FIELDS, type PropagationField } from '../../access-profile-fields.js';

/** Why `value` is not a non-empty list of distinct propagation fields, naming the item at fault (`[1] …`). */
export function propagationFieldsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    return ` must be a non-empty array of ${PROPAGATION_FIELDS.join(', ')}`;
  }
  const seen = new Map<unknown, number>();
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string' || !(PROPAGATION_FIELDS as readonly string[]).includes(item)) {
      return `[${i}] must be one of ${PROPAGATION_FIELDS.join(', ')}`;
    }
    const first = seen.get(item);
    if (first !== undefined) return `[${i}] repeats fields[${first}]`;
    seen.set(item, i);
  }
  return undefined;
}

/** Why `value` is not a list of UUIDs, naming the item at fault. */
export function uuidListProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return ' must be an array of UUIDs';
  const bad = value.findIndex((item) => typeof item !== 'string' || !isUUID(item));
  return bad >= 0 ? `[${bad}] must be a UUID` : undefined;
}

@ApiSchema({ name: 'PropagateAccessProfileRequest' })
export class PropagateAccessProfileDto {
  @ApiPropertyOptional({ default: false, description: 'Preview: the same counts, nothing written (`applied: false`)' })
  @IsOptionalNonNull()
  @IsBoolean()
  dry_run?: boolean;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...PROPAGATION_FIELDS] },
    minItems: 1,
    uniqueItems: true,
    description: 'Template fields copied onto each selected copy; the others are kept',
  })
  @ValidatesWith('propagationFields', propagationFieldsProblem)
  fields: PropagationField[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    maxItems: INPUT_LIMITS.maxArrayItems,
    description:
      'Users to update. With neither user_ids nor group_ids (or both empty): every holder of a copy; otherwise the union of these users and the members of group_ids',
  })
  @IsOptionalNonNull()
  @ValidatesWith('uuidList', uuidListProblem)
  user_ids?: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    maxItems: INPUT_LIMITS.maxArrayItems,
    description: 'Team ids: their members (users whose team_id is listed) are selected, added to user_ids',
  })
  @IsOptionalNonNull()
  @ValidatesWith('uuidList', uuidListProblem)
  group_ids?: string[];

  @ApiPropertyOptional({
    default: false,
    description: 'Zero budget and rate-limit usage of the rewritten keys (default: kept where window lengths match)',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  reset_usage?: boolean;
}
