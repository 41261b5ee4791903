import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { UpdateVirtualKeyDto } from './dto/virtual-key.dto.js';
import type { VirtualKeyEntity } from './entities/virtual-key.entity.js';

/** What a profile-managed key's own routes may change: its label. The policy is the user's copy's. */
const EDITABLE_WHEN_MANAGED: ReadonlySet<string> = new Set(['name', 'description']);

/** 409 `profile_managed`: the key's policy belongs to an access profile copy (`param` names the field sent). */
export function managedKeyLocked(
  key: Pick<VirtualKeyEntity, 'id' | 'access_profile_copy_id'>,
  param: string | undefined,
): GatewayException {
  const what = param === undefined ? 'deleted' : `changed (${param})`;
  return new GatewayException(
    409,
    'profile_managed',
    `Virtual key ${key.id} is managed by access profile copy ${key.access_profile_copy_id} and cannot be ${what} here: change the profile and propagate, or remove the user's access profile`,
    { param },
  );
}

/**
 * Refuses an update of a managed key carrying anything but `name` and `description` (first such field named). Budget
 * overrides and rotation stay allowed: they change a limit's headroom or the value, not the policy.
 */
export function assertEditableWhenManaged(key: VirtualKeyEntity, dto: UpdateVirtualKeyDto): void {
  if (key.access_profile_copy_id === null) return;
  const locked = Object.entries(dto).find(([field, value]) => value !== undefined && !EDITABLE_WHEN_MANAGED.has(field));
  if (locked) throw managedKeyLocked(key, locked[0]);
}
