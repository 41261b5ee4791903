import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull, LessThanOrEqual, type EntityManager } from 'typeorm';
import type { AuthenticatedVirtualKey } from '../../../core/auth/principal.js';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { generateVirtualKeyValue, hashCredential, maskKeyValue, VIRTUAL_KEY_PREFIX } from '../shared/credentials.js';
import { parseFutureExpiry } from '../shared/expiry.js';
import { isId } from '../../../core/validation/ids.js';
import { likePattern } from '../../../core/persistence/log-sql.js';
import type { ListVirtualKeysQueryDto } from './dto/list-virtual-keys.query.dto.js';
import type {
  CreateVirtualKeyDto,
  UpdateVirtualKeyDto,
  VirtualKeyDto,
  VirtualKeyListDto,
} from './dto/virtual-key.dto.js';
import { VirtualKeyCredentialEntity } from './entities/virtual-key-credential.entity.js';
import { VirtualKeyEntity } from './entities/virtual-key.entity.js';
import { assertEditableWhenManaged, managedKeyLocked } from './managed-key-lock.js';
import { normalizeMcpGrants, storedMcpGrants } from './mcp-grants.js';
import { VirtualKeyCache, type CachedVirtualKey } from './virtual-key-cache.js';
import { VirtualKeyPolicyWriter } from './virtual-key-policy.writer.js';
import { LimitsStore, type RemovedLimits } from '../objects/limits.store.js';
import { ModelConfigEntity } from '../objects/entities/model-config.entity.js';
import { GovernancePoliciesService } from '../policies/governance-policies.service.js';

const NAME_CONFLICT = 'uq_virtual_keys_name';

@Injectable()
export class VirtualKeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: VirtualKeyCache,
    private readonly policy: VirtualKeyPolicyWriter,
    private readonly limits: LimitsStore,
    private readonly policies: GovernancePoliciesService,
  ) {}

  /** The key with its policy (provider configs, budgets and rate limit with their usage). */
  async view(key: VirtualKeyEntity, value?: string): Promise<VirtualKeyDto> {
    return (await this.views([key], value))[0]!;
  }

  private async views(keys: VirtualKeyEntity[], value?: string): Promise<VirtualKeyDto[]> {
    const policies = await this.policy.views(
      this.dataSource.manager,
      keys.map((k) => k.id),
    );
    return keys.map((k) => {
      const p = policies.get(k.id)!;
      return {
        ...VirtualKeysService.baseView(k, value),
        provider_configs: p.provider_configs,
        budgets: p.budgets,
        rate_limit: p.rate_limit,
        mcp_configs: storedMcpGrants(k.mcp_configs).map((g) => ({ ...g, tools_to_execute: [...g.tools_to_execute] })),
      };
    });
  }

  private static baseView(key: VirtualKeyEntity, value?: string) {
    return {
      id: key.id,
      name: key.name,
      description: key.description,
      ...(value === undefined ? {} : { value }),
      is_active: key.is_active,
      expires_at: key.expires_at?.toISOString() ?? null,
      team_id: key.team_id,
      customer_id: key.customer_id,
      access_profile_copy_id: key.access_profile_copy_id,
      created_at: key.created_at.toISOString(),
      updated_at: key.updated_at.toISOString(),
    };
  }

  async list(query: ListVirtualKeysQueryDto): Promise<VirtualKeyListDto> {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const sort_by = query.sort_by ?? 'created_at';
    const order = query.order ?? 'desc';
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    const qb = this.dataSource.getRepository(VirtualKeyEntity).createQueryBuilder('k');
    const search = query.search?.trim();
    if (search) qb.where(`k.name ILIKE :like ESCAPE '\\'`, { like: likePattern(search) });
    const [rows, total_count] = await qb
      .orderBy(`k.${sort_by}`, direction)
      .addOrderBy('k.id', direction)
      .take(limit)
      .skip(offset)
      .getManyAndCount();
    const virtual_keys = await this.views(rows);
    return { virtual_keys, count: virtual_keys.length, pagination: { total_count, limit, offset, sort_by, order } };
  }

  async get(id: string): Promise<VirtualKeyEntity> {
    const key = await this.find(id, this.dataSource.manager);
    if (!key) throw this.notFound(id);
    return key;
  }

  /** The subset of `ids` naming existing virtual keys (other modules validate their references with it). */
  async findExistingIds(ids: string[]): Promise<string[]> {
    const valid = [...new Set(ids.filter(isId))];
    if (!valid.length) return [];
    const rows = await this.dataSource
      .getRepository(VirtualKeyEntity)
      .find({ select: { id: true }, where: { id: In(valid) } });
    return rows.map((r) => r.id);
  }

  async create(dto: CreateVirtualKeyDto): Promise<VirtualKeyDto> {
    const expires_at = parseFutureExpiry(dto.expires_at) ?? null;
    const value = generateVirtualKeyValue();
    await this.policy.validateInput(dto);
    const mcpConfigs = normalizeMcpGrants(dto.mcp_configs ?? [], 'mcp_configs');
    try {
      const key = await this.dataSource.transaction(async (m) => {
        await this.policy.validateOwner(m, dto, undefined);
        // insert, not save: save reads the row first to tell an insert from an update.
        const row = m.create(VirtualKeyEntity, {
          id: randomUUID(),
          name: dto.name,
          description: dto.description ?? '',
          is_active: dto.is_active ?? true,
          expires_at,
          team_id: dto.team_id ?? null,
          customer_id: dto.customer_id ?? null,
          mcp_configs: mcpConfigs,
        });
        // Fills the generated columns (created_at, updated_at) in from RETURNING. (The cast: TypeORM's deep-partial
        // type cannot take the loosely typed jsonb column.)
        await m.insert(VirtualKeyEntity, row as never);
        await this.addCredential(m, row.id, value);
        await this.policy.writeNew(m, row.id, dto);
        return row;
      });
      await this.policies.invalidate();
      return await this.view(key, value);
    } catch (error) {
      throw this.mapConflict(error, dto.name);
    }
  }

  /**
   * A key an access profile manages, inside the caller's transaction (no policy yet: the caller writes it with
   * ManagedKeyWriter, then invalidates after the commit). Returns the row and its value, shown once.
   */
  async insertManaged(
    m: EntityManager,
    input: { name: string; description?: string; access_profile_copy_id: number },
  ): Promise<{ key: VirtualKeyEntity; value: string }> {
    const value = generateVirtualKeyValue();
    try {
      const key = await m.save(
        m.create(VirtualKeyEntity, {
          id: randomUUID(),
          name: input.name,
          description: input.description ?? '',
          is_active: true,
          expires_at: null,
          team_id: null,
          customer_id: null,
          mcp_configs: [],
          access_profile_copy_id: input.access_profile_copy_id,
        }),
      );
      await this.addCredential(m, key.id, value);
      return { key, value };
    } catch (error) {
      throw this.mapConflict(error, input.name);
    }
  }

  /** The keys the listed access-profile copies produced, with their current values masked (oldest first). */
  async managedKeys(
    copyIds: readonly number[],
    m: EntityManager = this.dataSource.manager,
  ): Promise<Array<{ id: string; name: string; access_profile_copy_id: number; value_hint: string }>> {
    if (!copyIds.length) return [];
    const keys = await m.find(VirtualKeyEntity, {
      where: { access_profile_copy_id: In([...copyIds]) },
      order: { created_at: 'ASC', id: 'ASC' },
    });
    const credentials = keys.length
      ? await m.find(VirtualKeyCredentialEntity, {
          where: { virtual_key_id: In(keys.map((k) => k.id)), retires_at: IsNull() },
        })
      : [];
    const hints = new Map(credentials.map((c) => [c.virtual_key_id, c.value_hint]));
    return keys.map((k) => ({
      id: k.id,
      name: k.name,
      access_profile_copy_id: k.access_profile_copy_id!,
      // Values made before hints were stored show the prefix only.
      value_hint: hints.get(k.id) ?? `${VIRTUAL_KEY_PREFIX}…`,
    }));
  }

  /**
   * Deletes every key the listed copies produced, inside the caller's transaction (with the model configs scoped to
   * them). Returns their names and the limits whose counters the caller resets after the commit (ManagedKeyWriter).
   */
  async deleteManaged(
    m: EntityManager,
    copyIds: readonly number[],
  ): Promise<{ names: string[]; limits: RemovedLimits }> {
    const limits: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    if (!copyIds.length) return { names: [], limits };
    const keys = await m.find(VirtualKeyEntity, {
      where: { access_profile_copy_id: In([...copyIds]) },
      order: { created_at: 'ASC', id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    for (const key of keys) {
      const ids = await this.policy.allLimitIds(m, key.id);
      limits.budgetIds.push(...ids.budgetIds);
      limits.rateLimitIds.push(...ids.rateLimitIds);
    }
    if (keys.length) {
      const ids = keys.map((k) => k.id);
      await m.delete(ModelConfigEntity, { scope: 'virtual_key', scope_id: In(ids) });
      await m.delete(VirtualKeyEntity, { id: In(ids) });
    }
    return { names: keys.map((k) => k.name), limits };
  }

  async update(id: string, dto: UpdateVirtualKeyDto): Promise<VirtualKeyDto> {
    if (!isId(id)) throw this.notFound(id);
    const expiresAt = dto.expires_at === undefined ? undefined : (parseFutureExpiry(dto.expires_at) ?? null);
    await this.policy.validateInput(dto);
    const mcpConfigs = dto.mcp_configs && normalizeMcpGrants(dto.mcp_configs, 'mcp_configs');
    let toReset: RemovedLimits = { budgetIds: [], rateLimitIds: [] };
    let saved: VirtualKeyEntity;
    try {
      saved = await this.dataSource.transaction(async (m) => {
        const key = await m.findOne(VirtualKeyEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
        if (!key) throw this.notFound(id);
        assertEditableWhenManaged(key, dto);
        await this.policy.validateOwner(m, dto, key);
        if (expiresAt !== undefined) key.expires_at = expiresAt;
        if (dto.name !== undefined) key.name = dto.name;
        if (dto.description !== undefined) key.description = dto.description;
        if (dto.is_active !== undefined) key.is_active = dto.is_active;
        if (dto.team_id !== undefined) key.team_id = dto.team_id;
        if (dto.customer_id !== undefined) key.customer_id = dto.customer_id;
        if (mcpConfigs !== undefined) key.mcp_configs = mcpConfigs;
        const result = await m.save(key);
        const removed = await this.policy.write(m, id, dto);
        toReset = removed;
        if (dto.reset_usage) {
          const all = await this.policy.allLimitIds(m, id);
          await this.limits.markReset(m, all.budgetIds);
          toReset = {
            budgetIds: [...removed.budgetIds, ...all.budgetIds],
            rateLimitIds: [...removed.rateLimitIds, ...all.rateLimitIds],
          };
        }
        return result;
      });
    } catch (error) {
      throw this.mapConflict(error, dto.name ?? '');
    }
    await this.cache.invalidate();
    await this.policies.invalidate();
    await this.limits.resetCounters(toReset);
    return this.view(saved);
  }

  async delete(id: string): Promise<void> {
    const key = await this.get(id);
    if (key.access_profile_copy_id !== null) throw managedKeyLocked(key, undefined);
    // Credentials, provider configs, budgets and rate limits go with it (ON DELETE CASCADE); so do the model configs
    // scoped to it.
    const removed = await this.dataSource.transaction(async (m) => {
      const limits = await this.policy.allLimitIds(m, key.id);
      await m.delete(ModelConfigEntity, { scope: 'virtual_key', scope_id: key.id });
      await m.delete(VirtualKeyEntity, { id: key.id });
      return limits;
    });
    await this.cache.invalidate();
    await this.policies.invalidate();
    await this.limits.resetCounters(removed);
  }

  /**
   * New values for every listed key, in one transaction: an unknown id rotates nothing. With a grace period the
   * current values keep working until it ends; without one they stop at once.
   */
  async rotate(ids: string[], gracePeriod?: string): Promise<VirtualKeyDto[]> {
    const graceMs = gracePeriod === undefined ? 0 : parseDuration(gracePeriod);
    if (graceMs === undefined) throw GatewayException.validation('grace_period', 'grace_period is not a duration');
    const rotated = await this.dataSource.transaction(async (m) => {
      const keys = await m.find(VirtualKeyEntity, {
        where: { id: In(ids.filter(isId)) },
        lock: { mode: 'pessimistic_write' },
      });
      const byId = new Map(keys.map((k) => [k.id, k]));
      const missing = ids.find((id) => !byId.has(id));
      if (missing !== undefined) throw this.notFound(missing);
      const now = new Date();
      const out: Array<{ key: VirtualKeyEntity; value: string }> = [];
      for (const id of ids) {
        const key = byId.get(id) as VirtualKeyEntity;
        const credentials = m.getRepository(VirtualKeyCredentialEntity);
        // Values whose grace already ended are dead weight.
        await credentials.delete({ virtual_key_id: id, retires_at: LessThanOrEqual(now) });
        if (graceMs > 0) {
          await credentials.update(
            { virtual_key_id: id, retires_at: IsNull() },
            { retires_at: new Date(now.getTime() + graceMs) },
          );
        } else {
          await credentials.delete({ virtual_key_id: id });
        }
        const value = generateVirtualKeyValue();
        await this.addCredential(m, id, value);
        key.updated_at = now;
        const saved = await m.save(key);
        out.push({ key: saved, value });
      }
      return out;
    });
    await this.cache.invalidate();
    const views: VirtualKeyDto[] = [];
    for (const { key, value } of rotated) views.push(await this.view(key, value));
    return views;
  }

  /**
   * Accepts or refuses a presented value (the data-plane hot path): unknown or rotated out → 401
   * invalid_credentials; inactive or expired → 403 virtual_key_blocked. Served from the cache; the lookup key is the
   * value's SHA-256, so no stored secret is compared byte by byte with the input.
   */
  verify(value: string): AuthenticatedVirtualKey | Promise<AuthenticatedVirtualKey> {
    if (!value.startsWith(VIRTUAL_KEY_PREFIX)) return this.admit(value, null);
    const hash = hashCredential(value);
    // The hot path: a key in memory is judged synchronously, without a promise.
    const cached = this.cache.peek(hash);
    if (cached !== undefined) return this.admit(value, cached);
    return this.lookup(hash).then((key) => this.admit(value, key));
  }

  /** A key named by id (a queued job's), judged as `verify` judges a value; read from the database. */
  async verifyId(id: string): Promise<AuthenticatedVirtualKey> {
    const vk = isId(id) ? await this.dataSource.getRepository(VirtualKeyEntity).findOneBy({ id }) : null;
    return this.admit('', vk ? { ...cachedKeyOf(vk), retires_at: null } : null);
  }

  private admit(value: string, key: CachedVirtualKey | null): AuthenticatedVirtualKey {
    const now = Date.now();
    if (!key || (key.retires_at !== null && key.retires_at <= now)) {
      throw GatewayException.unauthorized('invalid_credentials', 'The virtual key is not valid');
    }
    if (!key.is_active) {
      throw GatewayException.forbidden('virtual_key_blocked', `Virtual key "${key.name}" is inactive`);
    }
    if (key.expires_at !== null && key.expires_at <= now) {
      throw GatewayException.forbidden('virtual_key_blocked', `Virtual key "${key.name}" has expired`);
    }
    return {
      id: key.id,
      name: key.name,
      team_id: key.team_id,
      customer_id: key.customer_id,
      expires_at: key.expires_at,
      presented_value: value,
      mcp_grants: key.mcp_grants,
    };
  }

  private lookup(hash: string): Promise<CachedVirtualKey | null> {
    return this.cache.getOrLoad(hash, (h) => this.load(h));
  }

  private async load(hash: string): Promise<CachedVirtualKey | null> {
    const credential = await this.dataSource.getRepository(VirtualKeyCredentialEntity).findOne({
      where: { value_hash: hash },
      relations: { virtual_key: true },
    });
    const vk = credential?.virtual_key;
    return credential && vk ? { ...cachedKeyOf(vk), retires_at: credential.retires_at?.getTime() ?? null } : null;
  }

  private async addCredential(m: EntityManager, virtualKeyId: string, value: string): Promise<void> {
    await m.insert(VirtualKeyCredentialEntity, {
      id: randomUUID(),
      virtual_key_id: virtualKeyId,
      value_hash: hashCredential(value),
      value_hint: maskKeyValue(value),
      retires_at: null,
    });
  }

  private async find(id: string, m: EntityManager): Promise<VirtualKeyEntity | null> {
    return isId(id) ? m.findOneBy(VirtualKeyEntity, { id }) : null;
  }

  private notFound(id: string): GatewayException {
    return GatewayException.notFound('virtual_key', `Virtual key ${id} not found`);
  }

  private mapConflict(error: unknown, name: string): unknown {
    if (isUniqueViolation(error, NAME_CONFLICT)) {
      return GatewayException.conflict(`A virtual key named "${name}" already exists`, 'name');
    }
    return error;
  }
}

/** What the key cache holds of a key, but the credential's retirement. */
function cachedKeyOf(vk: VirtualKeyEntity): Omit<CachedVirtualKey, 'retires_at'> {
  return {
    id: vk.id,
    name: vk.name,
    team_id: vk.team_id,
    customer_id: vk.customer_id,
    is_active: vk.is_active,
    expires_at: vk.expires_at?.getTime() ?? null,
    mcp_grants: storedMcpGrants(vk.mcp_configs),
  };
}
