import { ModelConfigEntity } from '../objects/entities/model-config.entity.js';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthPorts } from '../../../core/auth/auth-ports.js';
import type { Principal } from '../../../core/auth/principal.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { RoleEntity } from '../rbac/entities/role.entity.js';
import { RolesService } from '../rbac/roles.service.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { assertMayGrant } from '../shared/escalation.js';
import { isId } from '../../../core/validation/ids.js';
import { formatPermissionList } from '../shared/permission-list.js';
import type { CreateUserDto, UpdateUserDto, UserDto } from './dto/user.dto.js';
import type { ListUsersQueryDto } from './dto/list-users.query.dto.js';
import { likePattern } from '../../../core/persistence/log-sql.js';
import { UserEntity } from './entities/user.entity.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password-hasher.js';
import { UserRoleListeners, type AfterUserRoleCommit } from './user-role-listeners.js';

export interface UserWithPermissions {
  user: UserEntity;
  permissions: string[];
}

@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: GatewayConfig,
    private readonly ports: AuthPorts,
    private readonly roleListeners: UserRoleListeners,
  ) {}

  static toView(user: UserEntity): UserDto {
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      role_id: user.role_id,
      team_id: user.team_id,
      created_at: user.created_at.toISOString(),
      updated_at: user.updated_at.toISOString(),
    };
  }

  /** A page of users, oldest first (`limit` absent: all of them), with how many match across pages. */
  async list(query: ListUsersQueryDto = {}): Promise<{ users: UserEntity[]; total_count: number }> {
    const qb = this.dataSource.getRepository(UserEntity).createQueryBuilder('u');
    const search = query.search?.trim();
    if (search) {
      qb.andWhere(`(u.name ILIKE :like ESCAPE '\\' OR u.email ILIKE :like ESCAPE '\\')`, { like: likePattern(search) });
    }
    if (query.role_id) qb.andWhere('u.role_id = :role', { role: query.role_id });
    qb.orderBy('u.created_at', 'ASC').addOrderBy('u.id', 'ASC');
    if (query.limit === undefined) {
      const users = await qb.getMany();
      return { users, total_count: users.length };
    }
    const [users, total_count] = await qb
      .take(query.limit)
      .skip(query.offset ?? 0)
      .getManyAndCount();
    return { users, total_count };
  }

  async get(id: string): Promise<UserEntity> {
    const user = isId(id) ? await this.dataSource.getRepository(UserEntity).findOneBy({ id }) : null;
    if (!user) throw GatewayException.notFound('user', `User ${id} not found`);
    return user;
  }

  async create(dto: CreateUserDto, principal: Principal | undefined): Promise<UserEntity> {
    await this.checkRole(dto.role_id, principal);
    // Hash before touching the database: scrypt takes tens of milliseconds and PGlite has one connection.
    const password_hash = dto.password === undefined ? null : await hashPassword(dto.password);
    const repo = this.dataSource.getRepository(UserEntity);
    const user = repo.create({
      id: randomUUID(),
      name: dto.name,
      email: dto.email.toLowerCase(),
      role_id: dto.role_id,
      team_id: dto.team_id ?? null,
      password_hash,
    });
    return this.save(user, null);
  }

  async update(id: string, dto: UpdateUserDto, principal: Principal | undefined): Promise<UserEntity> {
    const user = await this.get(id);
    await this.checkRole(user.role_id, principal, 'change');
    // The role before the change, when the role changes (its listeners then run in the same transaction).
    const previousRole = dto.role_id !== undefined && dto.role_id !== user.role_id ? user.role_id : undefined;
    if (dto.role_id !== undefined) {
      await this.checkRole(dto.role_id, principal);
      user.role_id = dto.role_id;
    }
    if (dto.name !== undefined) user.name = dto.name;
    if (dto.email !== undefined) user.email = dto.email.toLowerCase();
    if (dto.team_id !== undefined) user.team_id = dto.team_id;
    if (dto.password === undefined) return this.save(user, previousRole);
    user.password_hash = await hashPassword(dto.password);
    const saved = await this.save(user, previousRole);
    // Whoever knew the old password must not keep a way in: every session of the account ends with it.
    await this.ports.sessions?.revokeUserSessions(saved.id);
    return saved;
  }

  async delete(id: string, principal: Principal | undefined): Promise<void> {
    const user = await this.get(id);
    await this.checkRole(user.role_id, principal, 'delete');
    // Model configs scoped to the user go with it (their scope_id has no foreign key: it names a key or a user).
    await this.dataSource.transaction(async (m) => {
      await m.delete(ModelConfigEntity, { scope: 'user', scope_id: user.id });
      await m.delete(UserEntity, { id: user.id });
    });
  }

  /** Login by email and password: the user and its role's permissions, or null (same time either way). */
  async verifyPassword(email: string, password: string): Promise<UserWithPermissions | null> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ email: email.toLowerCase() });
    if (!user?.password_hash) {
      await burnPasswordCheck(password);
      return null;
    }
    if (!(await verifyPassword(password, user.password_hash))) return null;
    return this.withPermissions(user);
  }

  /** A user with its role's permissions re-read, or null when the user no longer exists. */
  async load(id: string): Promise<UserWithPermissions | null> {
    const user = isId(id) ? await this.dataSource.getRepository(UserEntity).findOneBy({ id }) : null;
    return user ? this.withPermissions(user) : null;
  }

  private async withPermissions(user: UserEntity): Promise<UserWithPermissions> {
    const role = await this.dataSource.getRepository(RoleEntity).findOneBy({ id: user.role_id });
    return { user, permissions: role ? formatPermissionList(RolesService.permissionsOf(role)) : [] };
  }

  /**
   * The role must exist, and (enterprise) carry nothing the caller does not hold itself: whether the caller assigns
   * it, or changes or deletes a user holding it (changing a user, its password above all, is acting as that user).
   */
  private async checkRole(
    roleId: string,
    principal: Principal | undefined,
    action: 'assign' | 'change' | 'delete' = 'assign',
  ): Promise<void> {
    const role = isId(roleId) ? await this.dataSource.getRepository(RoleEntity).findOneBy({ id: roleId }) : null;
    if (!role) {
      if (action !== 'assign') return;
      throw GatewayException.validation('role_id', `role_id ${roleId} is not an existing role`);
    }
    const what = action === 'assign' ? `role "${role.name}"` : `role "${role.name}" (to ${action} a user holding it)`;
    assertMayGrant(this.config, principal, formatPermissionList(RolesService.permissionsOf(role)), what);
  }

  /**
   * Saves the user; with `previousRole` (null: a new user) the role listeners (a role's default access profiles) run in
   * the same transaction, so a user never exists without what their role gives them.
   */
  private async save(user: UserEntity, previousRole?: string | null): Promise<UserEntity> {
    try {
      let after: AfterUserRoleCommit[] = [];
      const saved = await this.dataSource.transaction(async (m) => {
        const row = await m.save(user);
        if (previousRole !== undefined) {
          after = await this.roleListeners.notify(m, {
            user_id: row.id,
            email: row.email,
            previous_role_id: previousRole,
            role_id: row.role_id,
          });
        }
        return row;
      });
      for (const work of after) await work();
      return saved;
    } catch (error) {
      if (isUniqueViolation(error, 'uq_users_email')) {
        throw GatewayException.conflict(`A user with email ${user.email} already exists`, 'email');
      }
      // The role was deleted between the check and the write.
      if (isForeignKeyViolation(error)) {
        throw GatewayException.validation('role_id', `role_id ${user.role_id} is not an existing role`);
      }
      throw error;
    }
  }
}
