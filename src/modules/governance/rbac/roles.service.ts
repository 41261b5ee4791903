import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PermissionPair } from '../../../core/auth/permissions.js';
import type { Principal } from '../../../core/auth/principal.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { assertMayGrant } from '../shared/escalation.js';
import { isId } from '../../../core/validation/ids.js';
import { formatPermissionList, parsePermissionList } from '../shared/permission-list.js';
import { BUILTIN_ROLE_BY_ID } from './builtin-roles.js';
import type { CreateRoleDto, RoleDto, UpdateRoleDto } from './dto/role.dto.js';
import { RoleEntity } from './entities/role.entity.js';
import { UserEntity } from '../users/entities/user.entity.js';

const NAME_CONFLICT = 'uq_roles_name';

@Injectable()
export class RolesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: GatewayConfig,
  ) {}

  /** The effective permission pairs of a role (built-in roles: computed from code). */
  static permissionsOf(role: RoleEntity): PermissionPair[] {
    return BUILTIN_ROLE_BY_ID.get(role.id)?.permissions() ?? role.permissions;
  }

  static toView(role: RoleEntity): RoleDto {
    return {
      id: role.id,
      name: role.name,
      description: role.description,
      permissions: formatPermissionList(RolesService.permissionsOf(role)),
      is_builtin: role.is_builtin,
      created_at: role.created_at.toISOString(),
      updated_at: role.updated_at.toISOString(),
    };
  }

  async list(): Promise<RoleEntity[]> {
    return this.dataSource.getRepository(RoleEntity).find({ order: { is_builtin: 'DESC', name: 'ASC' } });
  }

  /** How many users hold each role (roles no user holds are absent), counted in the database. */
  async holderCounts(): Promise<Map<string, number>> {
    const rows = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .select('u.role_id', 'role_id')
      .addSelect('COUNT(*)::int', 'count')
      .groupBy('u.role_id')
      .getRawMany<{ role_id: string; count: number }>();
    return new Map(rows.map((r) => [r.role_id, Number(r.count)]));
  }

  async find(id: string, manager: EntityManager = this.dataSource.manager): Promise<RoleEntity | null> {
    return isId(id) ? manager.findOneBy(RoleEntity, { id }) : null;
  }

  async get(id: string): Promise<RoleEntity> {
    const role = await this.find(id);
    if (!role) throw GatewayException.notFound('role', `Role ${id} not found`);
    return role;
  }

  async create(dto: CreateRoleDto, principal: Principal | undefined): Promise<RoleEntity> {
    const permissions = parsePermissionList(dto.permissions, 'permissions');
    assertMayGrant(this.config, principal, formatPermissionList(permissions), `role "${dto.name}"`);
    const repo = this.dataSource.getRepository(RoleEntity);
    const role = repo.create({
      id: randomUUID(),
      name: dto.name,
      description: dto.description ?? '',
      permissions,
      is_builtin: false,
    });
    try {
      return await repo.save(role);
    } catch (error) {
      if (isUniqueViolation(error, NAME_CONFLICT)) throw this.nameTaken(dto.name);
      throw error;
    }
  }

  async update(id: string, dto: UpdateRoleDto, principal: Principal | undefined): Promise<RoleEntity> {
    const role = await this.get(id);
    if (role.is_builtin) throw this.builtin(role, 'changed');
    if (dto.permissions !== undefined) {
      role.permissions = parsePermissionList(dto.permissions, 'permissions');
      assertMayGrant(this.config, principal, formatPermissionList(role.permissions), `role "${role.name}"`);
    }
    if (dto.name !== undefined) role.name = dto.name;
    if (dto.description !== undefined) role.description = dto.description;
    try {
      return await this.dataSource.getRepository(RoleEntity).save(role);
    } catch (error) {
      if (isUniqueViolation(error, NAME_CONFLICT)) throw this.nameTaken(role.name);
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const role = await this.find(id, m);
      if (!role) throw GatewayException.notFound('role', `Role ${id} not found`);
      if (role.is_builtin) throw this.builtin(role, 'deleted');
      const n = await m.countBy(UserEntity, { role_id: id });
      if (n > 0) throw this.inUse(role, n);
      try {
        await m.delete(RoleEntity, { id });
      } catch (error) {
        // A user was given the role after the count (the foreign key is the backstop).
        if (isForeignKeyViolation(error)) throw this.inUse(role, 1);
        throw error;
      }
    });
  }

  private inUse(role: RoleEntity, users: number): GatewayException {
    return new GatewayException(
      409,
      'in_use',
      `Role "${role.name}" is assigned to ${users} user(s); reassign them first`,
    );
  }

  private nameTaken(name: string): GatewayException {
    return GatewayException.conflict(`A role named "${name}" already exists`, 'name');
  }

  private builtin(role: RoleEntity, verb: string): GatewayException {
    return GatewayException.forbidden('permission_denied', `Built-in role "${role.name}" cannot be ${verb}`);
  }
}
