import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, type DataSource, type EntityManager } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { commaList } from '../../../core/http/query-values.js';
import { DEFAULT_PAGE_SIZE } from '../../../core/http/paging.dto.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { likePattern } from '../../../core/persistence/log-sql.js';
import { EMPTY_PROFILE_FIELDS, profileFieldsOf, type ProfileFields } from '../access-profile-fields.js';
import { AccessProfileCopyEntity } from '../entities/access-profile-copy.entity.js';
import { AccessProfileEntity } from '../entities/access-profile.entity.js';
import { applyProfileFields, assertProfileFields } from '../profile-fields.rules.js';
import { attachedRoles } from '../roles/attached-roles.js';
import { ToolGroupReferences } from '../tool-group-references.js';
import { recordProfileVersion } from './access-profile-version.recorder.js';
import type {
  AccessProfileDetailDto,
  AccessProfileDto,
  CloneAccessProfileDto,
  CreateAccessProfileDto,
  UpdateAccessProfileDto,
} from './dto/access-profile.dto.js';
import type { AccessProfileListDto, ListAccessProfilesQueryDto } from './dto/list-access-profiles.query.dto.js';

const NAME_CONFLICT = 'uq_access_profiles_name';

/** A template about to be inserted (version 1). */
interface NewProfile {
  name: string;
  description: string;
  is_active: boolean;
  tags: string[];
  fields: ProfileFields;
}

/**
 * Access profile templates: stored, validated as a whole before anything is written. Every change that alters a
 * template stores a version in its own transaction; users' copies change only through a propagation.
 */
@Injectable()
export class AccessProfilesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly toolGroups: ToolGroupReferences,
  ) {}

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

  async create(dto: CreateAccessProfileDto, changedBy: string | null = null): Promise<AccessProfileEntity> {
    const fields = applyProfileFields({ ...EMPTY_PROFILE_FIELDS }, dto);
    assertProfileFields(fields);
    return this.insert(dto.name, changedBy, async (m) => {
      await this.toolGroups.assertExist(m, fields.mcp_tool_groups);
      return {
        name: dto.name,
        description: dto.description ?? '',
        is_active: dto.is_active ?? true,
        tags: dto.tags ?? [],
        fields,
      };
    });
  }

  /** A new template with the source's state, tags and fields (its own version 1; no roles, no copies). */
  async clone(sourceId: number, dto: CloneAccessProfileDto, changedBy: string | null): Promise<AccessProfileEntity> {
    return this.insert(dto.name, changedBy, async (m) => {
      const source = await this.get(sourceId, m);
      return {
        name: dto.name,
        description: dto.description ?? source.description,
        is_active: source.is_active,
        tags: [...source.tags],
        fields: profileFieldsOf(source),
      };
    });
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

  async list(query: ListAccessProfilesQueryDto): Promise<AccessProfileListDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const offset = query.offset ?? 0;
    const qb = this.dataSource.getRepository(AccessProfileEntity).createQueryBuilder('p');
    const search = query.search?.trim();
    if (search) {
      const like = likePattern(search);
      qb.andWhere(
        new Brackets((w) =>
          w.where(`p.name ILIKE :like ESCAPE '\\'`, { like }).orWhere(`p.description ILIKE :like ESCAPE '\\'`),
        ),
      );
    }
    const tags = commaList(query.tags);
    if (tags) {
      qb.andWhere('EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.tags) AS t(tag) WHERE t.tag = ANY(:tags))', {
        tags,
      });
    }
    if (query.is_active !== undefined) qb.andWhere('p.is_active = :active', { active: query.is_active });
    const [rows, total_count] = await qb.orderBy('p.id', 'ASC').skip(offset).take(limit).getManyAndCount();
    const access_profiles = rows.map((r) => AccessProfilesService.toView(r));
    return { access_profiles, count: access_profiles.length, total_count, limit, offset };
  }

  /**
   * A partial update: fields sent replace the stored ones (`rate_limit: null` clears it), the result is checked as a
   * whole, and the next version is stored, even when nothing changed (every update is a version).
   */
  async update(id: number, dto: UpdateAccessProfileDto, changedBy: string | null): Promise<AccessProfileEntity> {
    return this.withNameConflict(dto.name, () =>
      this.dataSource.transaction(async (m) => {
        const profile = await this.lockForChange(id, m);
        const fields = applyProfileFields(profileFieldsOf(profile), dto);
        assertProfileFields(fields);
        // Checked when sent: references stored before groups existed are kept as they are (they grant nothing).
        if (dto.mcp_tool_groups !== undefined) await this.toolGroups.assertExist(m, fields.mcp_tool_groups);
        Object.assign(profile, fields, {
          name: dto.name ?? profile.name,
          description: dto.description ?? profile.description,
          is_active: dto.is_active ?? profile.is_active,
          tags: dto.tags ?? profile.tags,
        });
        return this.saveVersion(m, profile, changedBy);
      }),
    );
  }

  /**
   * Activates or deactivates (idempotent). A change of state is a version; repeating the current state writes
   * nothing. Deactivating keeps users' copies and their keys; an inactive template cannot be assigned.
   */
  async setActive(id: number, active: boolean, changedBy: string | null): Promise<AccessProfileEntity> {
    return this.dataSource.transaction(async (m) => {
      const profile = await this.lockForChange(id, m);
      if (profile.is_active === active) return profile;
      profile.is_active = active;
      return this.saveVersion(m, profile, changedBy);
    });
  }

  /** Deletes a template with its versions; 409 `in_use` while any user holds a copy of it. */
  async delete(id: number): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const profile = await this.lockForChange(id, m);
      const holders = await m.countBy(AccessProfileCopyEntity, { parent_profile_id: id });
      if (holders > 0) throw AccessProfilesService.inUse(profile, holders);
      try {
        await m.delete(AccessProfileEntity, { id });
      } catch (error) {
        // A copy was assigned after the count (the RESTRICT foreign key is the backstop).
        if (isForeignKeyViolation(error)) throw AccessProfilesService.inUse(profile, 1);
        throw error;
      }
    });
  }

  private static inUse(profile: AccessProfileEntity, holders: number): GatewayException {
    return new GatewayException(
      409,
      'in_use',
      `Access profile ${profile.name} is held by ${holders} user(s); remove their copies first`,
    );
  }

  /** The template, locked until the transaction ends: changes to one template (and their versions) go one at a time. */
  private async lockForChange(id: number, m: EntityManager): Promise<AccessProfileEntity> {
    const found = await m.findOne(AccessProfileEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!found) throw AccessProfilesService.notFound(id);
    return found;
  }

  private async saveVersion(
    m: EntityManager,
    profile: AccessProfileEntity,
    changedBy: string | null,
  ): Promise<AccessProfileEntity> {
    profile.version += 1;
    const saved = await m.save(profile);
    await recordProfileVersion(m, AccessProfilesService.toView(saved), changedBy);
    return saved;
  }

  /** Inserts a template and its version 1 in one transaction. */
  private insert(
    name: string,
    changedBy: string | null,
    build: (m: EntityManager) => NewProfile | Promise<NewProfile>,
  ): Promise<AccessProfileEntity> {
    return this.withNameConflict(name, () =>
      this.dataSource.transaction(async (m) => {
        const { fields, ...attrs } = await build(m);
        const saved = await m.save(m.create(AccessProfileEntity, { ...attrs, ...fields, version: 1 }));
        await recordProfileVersion(m, AccessProfilesService.toView(saved), changedBy);
        return saved;
      }),
    );
  }

  /** A name already taken: 409 `already_exists` naming `name`. */
  private async withNameConflict<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, NAME_CONFLICT)) {
        throw GatewayException.conflict(`An access profile named ${name} already exists`, 'name');
      }
      throw error;
    }
  }
}
