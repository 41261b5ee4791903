import { expect } from 'vitest';
import type { HttpClient } from '../helpers/http.js';

export const PROFILES = '/api/governance/access-profiles';
/** The built-in Developer role (test/governance/rbac-users.e2e-spec.ts lists the built-ins). */
export const DEVELOPER_ROLE = '00000000-0000-4000-8000-000000000003';

let serial = 0;

/** Creates a user (201 expected) and returns its id. */
export async function createUser(admin: HttpClient, extra: Record<string, unknown> = {}): Promise<string> {
  serial++;
  const res = await admin.post('/api/governance/users', {
    name: `User ${serial}`,
    email: `user-${serial}-${Date.now()}@example.com`,
    role_id: DEVELOPER_ROLE,
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** Creates a template (201 expected) and returns it. */
export async function createProfile(admin: HttpClient, body: Record<string, unknown>): Promise<any> {
  const res = await admin.post(PROFILES, body);
  expect(res.status, res.text).toBe(201);
  return res.body.access_profile;
}

/** Assigns a profile to a user (201 expected); returns `{ access_profile, virtual_key }` with the key's value. */
export async function assignProfile(admin: HttpClient, userId: string, profileId: number): Promise<any> {
  const res = await admin.post(`/api/governance/users/${userId}/access-profiles`, { profile_id: profileId });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Creates an MCP tool group without tools (201 expected) and returns its id: a valid `tool_group_id`. */
export async function createToolGroup(admin: HttpClient, name: string): Promise<string> {
  const res = await admin.post('/api/mcp/tool-groups', { name });
  expect(res.status, res.text).toBe(201);
  return res.body.tool_group.id as string;
}
