import type { Schema } from '../../api/schemas';

export type User = Schema<'User'>;
export type Role = Schema<'Role'>;
type UserCreateRequest = Schema<'UserCreateRequest'>;
type UserUpdateRequest = Schema<'UserUpdateRequest'>;
type RoleCreateRequest = Schema<'RoleCreateRequest'>;
type RoleUpdateRequest = Schema<'RoleUpdateRequest'>;

/** The user form's values, named as the API's fields (a refusal's `error.param` lands on its input). */
export interface UserValues extends Record<string, unknown> {
  name: string;
  email: string;
  /** Empty on an edit: unchanged. */
  password: string;
  role_id: string;
}

export function userValues(user?: User): UserValues {
  return { name: user?.name ?? '', email: user?.email ?? '', password: '', role_id: user?.role_id ?? '' };
}

/** A create: every field, the password only when typed (a user without one cannot sign in to the dashboard). */
export function createUserRequest(values: UserValues): UserCreateRequest {
  return {
    name: values.name.trim(),
    email: values.email.trim(),
    role_id: values.role_id,
    ...(values.password ? { password: values.password } : {}),
  };
}

/** An edit: only what changed (the team, not edited here, stays as it is). */
export function updateUserRequest(values: UserValues, stored: User): UserUpdateRequest {
  const name = values.name.trim();
  const email = values.email.trim();
  return {
    ...(name !== stored.name ? { name } : {}),
    ...(email !== stored.email ? { email } : {}),
    ...(values.role_id !== stored.role_id ? { role_id: values.role_id } : {}),
    ...(values.password ? { password: values.password } : {}),
  };
}

/** The role form's values. */
export interface RoleValues extends Record<string, unknown> {
  name: string;
  description: string;
  permissions: string[];
}

export function roleValues(role?: Role): RoleValues {
  return { name: role?.name ?? '', description: role?.description ?? '', permissions: [...(role?.permissions ?? [])] };
}

export function createRoleRequest(values: RoleValues): RoleCreateRequest {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    permissions: [...values.permissions].sort(),
  };
}

/** An edit sends the permissions whole (the API replaces them) and the name and description when they changed. */
export function updateRoleRequest(values: RoleValues, stored: Role): RoleUpdateRequest {
  const name = values.name.trim();
  const description = values.description.trim();
  return {
    ...(name !== stored.name ? { name } : {}),
    ...(description !== stored.description ? { description } : {}),
    permissions: [...values.permissions].sort(),
  };
}
