import type { Schema } from '../../api/schemas';
import { instantOf, localInputOf } from '../virtual-keys/virtual-key-values';

export type ManagementKey = Schema<'ManagementKey'>;
type CreateRequest = Schema<'ManagementKeyCreateRequest'>;
type UpdateRequest = Schema<'ManagementKeyUpdateRequest'>;

/** The key form's values, named as the API's fields (a refusal's `error.param` lands on its input). */
export interface KeyValues extends Record<string, unknown> {
  name: string;
  scopes: string[];
  /** A `datetime-local` input's text, in the browser's time zone; empty: never expires. */
  expires_at: string;
}

export function keyValues(key?: ManagementKey): KeyValues {
  return { name: key?.name ?? '', scopes: [...(key?.scopes ?? [])], expires_at: localInputOf(key?.expires_at) };
}

export function createKeyRequest(values: KeyValues): CreateRequest {
  const expiry = values.expires_at.trim();
  return {
    name: values.name.trim(),
    scopes: [...values.scopes].sort(),
    ...(expiry ? { expires_at: instantOf(expiry) } : {}),
  };
}

/** An edit: the scopes whole (the API replaces them), the name and the expiry when they changed (empty: none). */
export function updateKeyRequest(values: KeyValues, stored: ManagementKey): UpdateRequest {
  const name = values.name.trim();
  const expiry = values.expires_at.trim();
  const expiryChanged = expiry !== localInputOf(stored.expires_at);
  return {
    ...(name !== stored.name ? { name } : {}),
    scopes: [...values.scopes].sort(),
    ...(expiryChanged ? { expires_at: expiry ? instantOf(expiry) : null } : {}),
  };
}

/** What the API's constraints cannot say: a new expiry is a date in the future; a key holds at least one scope. */
export function keyProblems(
  values: KeyValues,
  stored: ManagementKey | undefined,
  now = Date.now(),
): Record<string, string> {
  const problems: Record<string, string> = {};
  const expiry = values.expires_at.trim();
  if (expiry && expiry !== localInputOf(stored?.expires_at)) {
    const at = Date.parse(instantOf(expiry));
    if (Number.isNaN(at)) problems.expires_at = 'Must be a date and time';
    else if (at <= now) problems.expires_at = 'Must be in the future';
  }
  if (values.scopes.length === 0) problems.scopes = 'Tick at least one permission';
  return problems;
}

/** Whether a key still authenticates: `expired` once its expiry has passed. */
export function keyState(key: Pick<ManagementKey, 'expires_at'>, now = Date.now()): 'active' | 'expired' {
  return key.expires_at && Date.parse(key.expires_at) <= now ? 'expired' : 'active';
}
