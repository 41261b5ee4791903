import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isId } from '../../../core/validation/ids.js';
import { VirtualKeysService } from '../virtual-keys/virtual-keys.service.js';
import type {
  CreatePricingOverrideDto,
  PricingOverrideDto,
  PricingOverrideListDto,
  PricingOverrideQueryDto,
  PricingPatchDto,
  UpdatePricingOverrideDto,
} from './dto/pricing-override.dto.js';
import { PricingOverrideEntity } from './entities/pricing-override.entity.js';
import { PricingOverrides } from './pricing-override-set.js';
import { PATCH_FIELDS, SCOPE_ID_FIELDS, SCOPE_IDS, type PatchField, type PricingPatch } from './pricing-scopes.js';

type ScopeIds = Pick<PricingOverrideEntity, 'virtual_key_id' | 'user_id' | 'provider_id' | 'provider_key_id'>;

/** Pricing overrides (`/api/governance/pricing-overrides`): validated on write, applied by PricingOverrides. */
@Injectable()
export class PricingOverridesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly overrides: PricingOverrides,
    private readonly virtualKeys: VirtualKeysService,
  ) {}

  static toView(row: PricingOverrideEntity): PricingOverrideDto {
    return {
      id: row.id,
      name: row.name,
      scope_kind: row.scope_kind,
      virtual_key_id: row.virtual_key_id,
      user_id: row.user_id,
      provider_id: row.provider_id,
      provider_key_id: row.provider_key_id,
      match_type: row.match_type,
      pattern: row.pattern,
      request_types: row.request_types,
      patch: row.pricing_patch,
      pricing_patch: JSON.stringify(row.pricing_patch),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  async list(query: PricingOverrideQueryDto): Promise<PricingOverrideListDto> {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const qb = this.dataSource.getRepository(PricingOverrideEntity).createQueryBuilder('o');
    if (query.scope_kind) qb.andWhere('o.scope_kind = :kind', { kind: query.scope_kind });
    for (const field of SCOPE_ID_FIELDS) {
      const value = query[field];
      if (value !== undefined) qb.andWhere(`o.${field} = :${field}`, { [field]: value });
    }
    if (query.search) {
      const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(new Brackets((w) => w.where('o.name ILIKE :like', { like }).orWhere('o.pattern ILIKE :like')));
    }
    const [rows, total_count] = await qb
      .orderBy('o.created_at', 'DESC')
      .addOrderBy('o.id', 'DESC')
      .take(limit)
      .skip(offset)
      .getManyAndCount();
    const pricing_overrides = rows.map((r) => PricingOverridesService.toView(r));
    return {
      pricing_overrides,
      count: pricing_overrides.length,
      pagination: { total_count, limit, offset, sort_by: 'created_at', order: 'desc' },
    };
  }

  async get(id: string): Promise<PricingOverrideEntity> {
    const row = isId(id) ? await this.dataSource.getRepository(PricingOverrideEntity).findOneBy({ id }) : null;
    if (!row) throw GatewayException.notFound('pricing_override', `Pricing override ${id} not found`);
    return row;
  }

  async create(dto: CreatePricingOverrideDto): Promise<PricingOverrideEntity> {
    const row = this.dataSource.getRepository(PricingOverrideEntity).create({
      id: randomUUID(),
      name: dto.name,
      scope_kind: dto.scope_kind,
      ...scopeIds(dto),
      match_type: dto.match_type,
      pattern: dto.pattern,
      request_types: requestTypesOf(dto.request_types),
      pricing_patch: patchOf(dto.patch),
    });
    return this.save(row);
  }

  async update(id: string, dto: UpdatePricingOverrideDto): Promise<PricingOverrideEntity> {
    const row = await this.get(id);
    if (dto.name !== undefined) row.name = dto.name;
    if (dto.scope_kind !== undefined) {
      // A new kind starts from no ids: only those sent now count.
      row.scope_kind = dto.scope_kind;
      Object.assign(row, { virtual_key_id: null, user_id: null, provider_id: null, provider_key_id: null });
    }
    Object.assign(row, scopeIds(dto, row));
    if (dto.match_type !== undefined) row.match_type = dto.match_type;
    if (dto.pattern !== undefined) row.pattern = dto.pattern;
    if (dto.request_types !== undefined) row.request_types = requestTypesOf(dto.request_types);
    if (dto.patch !== undefined) row.pricing_patch = patchOf(dto.patch);
    return this.save(row);
  }

  async delete(id: string): Promise<void> {
    const row = await this.get(id);
    await this.dataSource.getRepository(PricingOverrideEntity).delete({ id: row.id });
    await this.overrides.invalidate();
  }

  private async save(row: PricingOverrideEntity): Promise<PricingOverrideEntity> {
    assertScope(row);
    assertPattern(row);
    if (row.virtual_key_id !== null && (await this.virtualKeys.findExistingIds([row.virtual_key_id])).length === 0) {
      throw GatewayException.validation(
        'virtual_key_id',
        `virtual_key_id names no virtual key (${row.virtual_key_id})`,
      );
    }
    const saved = await this.dataSource.getRepository(PricingOverrideEntity).save(row);
    await this.overrides.invalidate();
    return saved;
  }
}

/** The ids sent (null clears one), over `base`. */
function scopeIds(dto: Partial<ScopeIds>, base?: ScopeIds): Partial<ScopeIds> {
  const out: Partial<ScopeIds> = {};
  for (const field of SCOPE_ID_FIELDS) {
    const value = dto[field];
    if (value !== undefined) out[field] = value;
    else if (!base) out[field] = null;
  }
  return out;
}

/** Exactly the ids the kind names: each present, no other. */
function assertScope(row: PricingOverrideEntity): void {
  const needed = SCOPE_IDS[row.scope_kind];
  for (const field of SCOPE_ID_FIELDS) {
    const set = row[field] !== null && row[field] !== undefined;
    if (needed.includes(field) && !set) {
      throw GatewayException.validation(field, `${field} is required for scope_kind ${row.scope_kind}`);
    }
    if (!needed.includes(field) && set) {
      throw GatewayException.validation(field, `${field} does not belong to scope_kind ${row.scope_kind}`);
    }
  }
  if (row.virtual_key_id !== null && !isId(row.virtual_key_id)) {
    throw GatewayException.validation('virtual_key_id', 'virtual_key_id must be a virtual key id (a UUID)');
  }
}

function assertPattern(row: PricingOverrideEntity): void {
  const stars = row.pattern.split('*').length - 1;
  if (row.match_type === 'exact' && stars > 0) {
    throw GatewayException.validation('pattern', 'pattern of an exact match must not contain *');
  }
  if (row.match_type === 'wildcard' && (stars !== 1 || !row.pattern.endsWith('*'))) {
    throw GatewayException.validation('pattern', 'pattern of a wildcard match is a prefix ending with one *');
  }
}

function requestTypesOf(types: string[]): string[] {
  return [...new Set(types.map((t) => t.replace(/_stream$/, '')))];
}

function patchOf(dto: PricingPatchDto): PricingPatch {
  const patch: PricingPatch = {};
  for (const field of Object.keys(PATCH_FIELDS) as PatchField[]) {
    const value = dto[field];
    if (value !== undefined) patch[field] = value;
  }
  if (Object.keys(patch).length === 0) {
    throw GatewayException.validation('patch', 'patch must set at least one price');
  }
  return patch;
}
