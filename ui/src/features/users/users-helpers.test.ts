import { describe, expect, it } from 'vitest';
import {
  createRoleRequest,
  createUserRequest,
  roleValues,
  updateRoleRequest,
  updateUserRequest,
  userValues,
  type Role,
  type User,
} from './users-helpers';

const user = (name: string, email: string, role_id: string): User => ({
  id: `id-${name}`,
  name,
  email,
  role_id,
  team_id: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});
const role: Role = {
  id: 'r1',
  name: 'support',
  description: 'Reads logs',
  permissions: ['Logs:View'],
  is_builtin: false,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('users', () => {
  const users = [user('Ada', 'ada@example.com', 'r1'), user('Bob', 'bob@corp.test', 'r2'), user('Cy', 'cy@x.io', 'r1')];

  it('creates with a password only when typed', () => {
    const values = { ...userValues(), name: ' Ada ', email: 'ada@example.com ', role_id: 'r1' };
    expect(createUserRequest(values)).toEqual({ name: 'Ada', email: 'ada@example.com', role_id: 'r1' });
    expect(createUserRequest({ ...values, password: 'secret-123' }).password).toBe('secret-123');
  });

  it('an edit sends only what changed', () => {
    const stored = users[0]!;
    expect(updateUserRequest(userValues(stored), stored)).toEqual({});
    expect(updateUserRequest({ ...userValues(stored), role_id: 'r2' }, stored)).toEqual({ role_id: 'r2' });
    expect(updateUserRequest({ ...userValues(stored), password: 'new-password' }, stored)).toEqual({
      password: 'new-password',
    });
  });
});

describe('roles', () => {
  it('creates with sorted permissions', () => {
    expect(createRoleRequest({ name: ' ops ', description: '', permissions: ['Logs:View', 'Cache:View'] })).toEqual({
      name: 'ops',
      description: '',
      permissions: ['Cache:View', 'Logs:View'],
    });
  });

  it('an edit replaces the permissions, and sends the name only when it changed', () => {
    expect(updateRoleRequest({ ...roleValues(role), permissions: ['Logs:View', 'Logs:Delete'] }, role)).toEqual({
      permissions: ['Logs:Delete', 'Logs:View'],
    });
    expect(updateRoleRequest({ ...roleValues(role), name: 'helpdesk' }, role).name).toBe('helpdesk');
  });
});
