import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { EMPTY_PROFILE_FIELDS, profileFieldsOf } from '../access-profile-fields.js';
import { AccessProfileCopyEntity } from '../entities/access-profile-copy.entity.js';
import { AccessProfileEntity } from '../entities/access-profile.entity.js';
import { applyProfileFields, assertProfileFields } from '../profile-fields.rules.js';
import { attachedRoles } from '../roles/attached-roles.js';
import type { AccessProfileDetailDto, AccessProfileDto, CreateAccessProfileDto } from './dto/access-profile.dto.js';

const NAME_CONFLICT = 'uq_access_profiles_name';

/** Access profile templates: stored, validated as a whole before anything is written. */
@Injectable()
export class AccessProfilesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A `{profile_id}` path value: a positive integer, else 404 (no such profile can exist). */
  static parseId(raw: string): number {
    const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw AccessProfilesService.notFound(raw);
    return id;
  }

  static notFound(id: string | number): GatewayException {
    return GatewayException.notFound('access_profile', `Access profile ${id} not found`);
  }

  static toView(p: AccessProfileEntity): AccessProfileDto {
    return {
      id: p.id,
      name: p.name,
      description: p.description,
      is_active: p.is_active,
      version: p.version,
      tags: p.tags,
      ...profileFieldsOf(p),
      created_at: p.created_at.toISOString(),
      updated_at: p.updated_at.toISOString(),
    };
  }

  async create(dto: CreateAccessProfileDto): Promise<AccessProfileEntity> {
    const fields = applyProfileFields({ ...EMPTY_PROFILE_FIELDS }, dto);
    assertProfileFields(fields);
    try {
      return await this.dataSource.transaction(async (m) => {
        const saved = await m.save(
          m.create(AccessProfileEntity, {
            name: dto.name,
            description: dto.description ?? '',
            is_active: dto.is_active ?? true,
            tags: dto.tags ?? [],
            version: 1,
            ...fields,
          }),
        );
        return saved;
      });
    } catch (error) {
      if (isUniqueViolation(error, NAME_CONFLICT)) {
        throw GatewayException.conflict(`An access profile named ${dto.name} already exists`, 'name');
      }
      throw error;
    }
  }

  async get(id: number, m: EntityManager = this.dataSource.manager): Promise<AccessProfileEntity> {
    const found = await m.findOneBy(AccessProfileEntity, { id });
    if (!found) throw AccessProfilesService.notFound(id);
    return found;
  }

  async detail(id: number): Promise<AccessProfileDetailDto> {
    const profile = await this.get(id);
    const user_count = await this.dataSource.manager.countBy(AccessProfileCopyEntity, { parent_profile_id: id });
    return {
      access_profile: AccessProfilesService.toView(profile),
      roles: await attachedRoles(this.dataSource.manager, id),
      user_count,
    };
  }
}
