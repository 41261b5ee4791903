import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, sql } from '../governance/governance-test-kit.js';
import type { HttpClient } from '../helpers/http.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { startInferenceStack, type InferenceStack } from '../inference/inference-kit.js';
import { assignProfile, createProfile, createUser, PROFILES } from './access-profiles-kit.js';

const MISSING_ROLE = '3f1c2b7e-2d7a-4c55-9a8e-0b6f3b0f4a11';

async function createRole(admin: HttpClient, name: string): Promise<string> {
  const res = await admin.post('/api/governance/rbac/roles', { name, permissions: ['Logs:View'] });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/**
 * Roles attached to access profiles, through HTTP: attachment and its validation, `apply_to_existing`, default
 * profiles given to users created with or moved to a role (and taken back when they leave it), detachment.
 */
describe(`access profile roles (${RUN_MODE})`, () => {
  let s: InferenceStack;
  const copiesOf = async (userId: string): Promise<any[]> => {
    const res = await s.admin.get(`/api/governance/users/${userId}/access-profiles`);
    expect(res.status, res.text).toBe(200);
    return res.body.access_profiles;
  };
  const attach = (profileId: number, body: Record<string, unknown>) =>
    s.admin.post(`${PROFILES}/${profileId}/roles`, body);
  /** A role-given key's value is never shown: rotating it is how its user gets one. */
  const valueOf = async (keyId: string): Promise<string> => {
    const res = await s.admin.post(`/api/governance/virtual-keys/${keyId}/rotate`, {});
    expect(res.status, res.text).toBe(200);
    return res.body.virtual_key.value;
  };
  const chat = (value: string) =>
    s.gw.http
      .withHeaders({ authorization: `Bearer ${value}` })
      .post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });

  beforeAll(async () => {
    s = await startInferenceStack({ edition: 'enterprise' });
  });
  afterAll(() => s?.close());

  it('refuses bad attachments with 400 naming the field, writing nothing', async () => {
    const profile = await createProfile(s.admin, { name: 'attach-checks' });
    const role = await createRole(s.admin, 'checks');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'role_ids'],
      [{ role_ids: [] }, 'role_ids'],
      [{ role_ids: 'x' }, 'role_ids'],
      [{ role_ids: ['x'] }, 'role_ids[0]'],
      [{ role_ids: [role, 7] }, 'role_ids[1]'],
      [{ role_ids: [role, role.toUpperCase()] }, 'role_ids[1]'],
      [{ role_ids: [role, MISSING_ROLE] }, 'role_ids[1]'],
      [{ role_ids: [role], is_default: 'yes' }, 'is_default'],
      [{ role_ids: [role], apply_to_existing: null }, 'apply_to_existing'],
      [{ role_ids: [role], extra: 1 }, 'extra'],
    ];
    for (const [body, param] of cases) {
      expectError(await attach(profile.id, body), 400, 'validation_failed', param);
    }
    expect((await s.admin.get(`${PROFILES}/${profile.id}`)).body.roles).toEqual([]);
    expect(await sql(s.gw, 'SELECT id FROM access_profile_roles')).toEqual([]);
    expectError(await attach(999999, { role_ids: [role] }), 404, 'access_profile_not_found');

    // An inactive profile cannot be handed out to a role's users now.
    const inactive = await createProfile(s.admin, { name: 'attach-inactive', is_active: false });
    expectError(
      await attach(inactive.id, { role_ids: [role], apply_to_existing: true }),
      400,
      'validation_failed',
      'apply_to_existing',
    );
    expect((await s.admin.get(`${PROFILES}/${inactive.id}`)).body.roles).toEqual([]);
  });

  it('attaches roles, backfills their users with apply_to_existing, and shows them on the template', async () => {
    const profile = await createProfile(s.admin, {
      name: 'backfilled',
      provider_configs: [{ provider_name: 'openai', all_models_allowed: true }],
    });
    const role = await createRole(s.admin, 'engineering');
    const otherRole = await createRole(s.admin, 'sales');
    const [u1, u2, direct, outsider] = [
      await createUser(s.admin, { role_id: role }),
      await createUser(s.admin, { role_id: role }),
      await createUser(s.admin, { role_id: role }),
      await createUser(s.admin, { role_id: otherRole }),
    ];
    const directCopy = await assignProfile(s.admin, direct, profile.id);

    // Attached but neither default nor applied: nobody gets anything.
    const plain = await attach(profile.id, { role_ids: [otherRole] });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body).toEqual({ message: expect.any(String), users_applied: 0 });
    expect(await copiesOf(outsider)).toEqual([]);

    const res = await attach(profile.id, { role_ids: [role], is_default: true, apply_to_existing: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), users_applied: 2 });
    for (const userId of [u1, u2]) {
      const [copy] = await copiesOf(userId);
      expect(copy).toMatchObject({ parent_profile_id: profile.id, assigned_via: 'role', role_id: role });
      expect(copy.virtual_key_ids).toHaveLength(1);
      expect(copy.virtual_key_values[0]).toMatch(/^sk-gw-..…....$/);
    }
    // A user already holding the profile keeps their direct copy and key.
    expect(await copiesOf(direct)).toEqual([
      expect.objectContaining({ assigned_via: 'direct', virtual_key_ids: [directCopy.virtual_key.id] }),
    ]);
    expect(await copiesOf(outsider)).toEqual([]);

    // The backfilled keys work on /v1 like any.
    const [u1Copy] = await copiesOf(u1);
    expect((await chat(await valueOf(u1Copy.virtual_key_ids[0]))).status).toBe(200);

    const detail = await s.admin.get(`${PROFILES}/${profile.id}`);
    expect(detail.body.user_count).toBe(3);
    expect(detail.body.roles).toEqual([
      {
        id: expect.any(Number),
        access_profile_id: profile.id,
        role_id: otherRole,
        role_name: 'sales',
        is_default: false,
      },
      {
        id: expect.any(Number),
        access_profile_id: profile.id,
        role_id: role,
        role_name: 'engineering',
        is_default: true,
      },
    ]);

    // Attaching again changes is_default in place; applying again finds nobody left.
    const again = await attach(profile.id, { role_ids: [otherRole, role], is_default: false, apply_to_existing: true });
    expect(again.body.users_applied).toBe(1);
    expect(await copiesOf(outsider)).toEqual([expect.objectContaining({ assigned_via: 'role', role_id: otherRole })]);
    const roles = (await s.admin.get(`${PROFILES}/${profile.id}`)).body.roles;
    expect(roles.map((r: any) => [r.role_name, r.is_default])).toEqual([
      ['sales', false],
      ['engineering', false],
    ]);
    expect(roles[1].id).toBe(detail.body.roles[1].id);
  });

  it('gives users their role’s default profiles, and swaps role copies when the role changes', async () => {
    const shared = await createProfile(s.admin, {
      name: 'shared-default',
      provider_configs: [{ provider_name: 'openai', all_models_allowed: true }],
    });
    const onlyA = await createProfile(s.admin, {
      name: 'a-default',
      provider_configs: [{ provider_name: 'openai', all_models_allowed: true }],
    });
    const onlyB = await createProfile(s.admin, { name: 'b-default' });
    const inactiveB = await createProfile(s.admin, { name: 'b-inactive', is_active: false });
    const direct = await createProfile(s.admin, { name: 'held-directly' });
    const roleA = await createRole(s.admin, 'role-a');
    const roleB = await createRole(s.admin, 'role-b');
    expect((await attach(shared.id, { role_ids: [roleA, roleB], is_default: true })).status).toBe(200);
    expect((await attach(onlyA.id, { role_ids: [roleA], is_default: true })).status).toBe(200);
    expect((await attach(onlyB.id, { role_ids: [roleB], is_default: true })).status).toBe(200);
    expect((await attach(inactiveB.id, { role_ids: [roleB], is_default: true })).status).toBe(200);

    // Created with role A: both of A's defaults, at once.
    const userId = await createUser(s.admin, { role_id: roleA });
    const first = await copiesOf(userId);
    expect(first.map((c) => [c.parent_profile_id, c.assigned_via, c.role_id])).toEqual([
      [shared.id, 'role', roleA],
      [onlyA.id, 'role', roleA],
    ]);
    await assignProfile(s.admin, userId, direct.id);
    const sharedKey = first[0].virtual_key_ids[0];
    const aValue = await valueOf(first[1].virtual_key_ids[0]);
    const sharedValue = await valueOf(sharedKey);
    expect((await chat(aValue)).status).toBe(200);

    // Moved to role B: A's copy goes (its key stops at once), B's active default comes, the profile both roles
    // default to stays with its key (now attributed to B), the direct one stays.
    const moved = await s.admin.put(`/api/governance/users/${userId}`, { role_id: roleB });
    expect(moved.status, moved.text).toBe(200);
    const second = await copiesOf(userId);
    expect(second.map((c) => [c.parent_profile_id, c.assigned_via, c.role_id])).toEqual([
      [shared.id, 'role', roleB],
      [direct.id, 'direct', null],
      [onlyB.id, 'role', roleB],
    ]);
    expect(second[0].virtual_key_ids).toEqual([sharedKey]);
    expectError(await chat(aValue), 401, 'invalid_credentials');
    expect((await chat(sharedValue)).status).toBe(200);

    // Another update that does not change the role changes no copy.
    expect((await s.admin.put(`/api/governance/users/${userId}`, { name: 'Renamed', role_id: roleB })).status).toBe(
      200,
    );
    expect(await copiesOf(userId)).toEqual(second);
  });

  it('refuses the whole user change when a default copy cannot be made', async () => {
    const profile = await createProfile(s.admin, { name: 'clashing' });
    const role = await createRole(s.admin, 'clash-role');
    expect((await attach(profile.id, { role_ids: [role], is_default: true })).status).toBe(200);
    const email = `clash-${Date.now()}@example.com`;
    // An ordinary key already has the name the managed key would take.
    const vk = await s.admin.post('/api/governance/virtual-keys', { name: `clashing (${email})` });
    expect(vk.status, vk.text).toBe(201);
    const res = await s.admin.post('/api/governance/users', { name: 'Clash', email, role_id: role });
    expectError(res, 409, 'already_exists');
    expect(await sql(s.gw, 'SELECT id FROM users WHERE email = $1', [email])).toEqual([]);
    expect(await sql(s.gw, 'SELECT id FROM access_profile_copies WHERE parent_profile_id = $1', [profile.id])).toEqual(
      [],
    );
  });

  it('detaches a role: copies it gave stay, new holders get nothing, 404 when not attached', async () => {
    const profile = await createProfile(s.admin, { name: 'detached' });
    const role = await createRole(s.admin, 'detach-role');
    expect((await attach(profile.id, { role_ids: [role], is_default: true })).status).toBe(200);
    const before = await createUser(s.admin, { role_id: role });
    expect(await copiesOf(before)).toHaveLength(1);

    const res = await s.admin.delete(`${PROFILES}/${profile.id}/roles/${role}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: 'Role detached from access profile' });
    expect((await s.admin.get(`${PROFILES}/${profile.id}`)).body.roles).toEqual([]);
    expect(await copiesOf(before)).toEqual([expect.objectContaining({ assigned_via: 'role', role_id: role })]);
    expect(await copiesOf(await createUser(s.admin, { role_id: role }))).toEqual([]);

    expectError(await s.admin.delete(`${PROFILES}/${profile.id}/roles/${role}`), 404, 'access_profile_role_not_found');
    expectError(
      await s.admin.delete(`${PROFILES}/${profile.id}/roles/not-a-role`),
      404,
      'access_profile_role_not_found',
    );
    expectError(await s.admin.delete(`${PROFILES}/999999/roles/${role}`), 404, 'access_profile_not_found');
  });
});
