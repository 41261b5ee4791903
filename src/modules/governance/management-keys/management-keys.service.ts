import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { Principal } from '../../../core/auth/principal.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { generateManagementKeyValue, hashCredential, MANAGEMENT_KEY_PREFIX } from '../shared/credentials.js';
import { assertMayGrant } from '../shared/escalation.js';
import { parseFutureExpiry } from '../shared/expiry.js';
import { isId } from '../../../core/validation/ids.js';
import { formatPermissionList, parsePermissionList } from '../shared/permission-list.js';
import type {
  CreatedManagementKeyDto,
  CreateManagementKeyDto,
  ManagementKeyDto,
  UpdateManagementKeyDto,
} from './dto/management-key.dto.js';
import { ManagementKeyEntity } from './entities/management-key.entity.js';

/** `last_used_at` is written at most this often per key: a busy key must not turn every request into a write. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

@Injectable()
export class ManagementKeysService {
  private readonly lastUsedWrites = new Map<string, number>();
  private readonly logger: Logger;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: GatewayConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ context: 'management-keys' });
  }

  static toView(key: ManagementKeyEntity): ManagementKeyDto {
    return {
      id: key.id,
      name: key.name,
      scopes: formatPermissionList(key.scopes),
      expires_at: key.expires_at?.toISOString() ?? null,
      last_used_at: key.last_used_at?.toISOString() ?? null,
      created_at: key.created_at.toISOString(),
    };
  }

  async list(): Promise<ManagementKeyEntity[]> {
    return this.dataSource.getRepository(ManagementKeyEntity).find({ order: { created_at: 'ASC', id: 'ASC' } });
  }

  async get(id: string): Promise<ManagementKeyEntity> {
    const key = isId(id) ? await this.dataSource.getRepository(ManagementKeyEntity).findOneBy({ id }) : null;
    if (!key) throw GatewayException.notFound('management_key', `Management key ${id} not found`);
    return key;
  }

  async create(dto: CreateManagementKeyDto, principal: Principal | undefined): Promise<CreatedManagementKeyDto> {
    const scopes = parsePermissionList(dto.scopes, 'scopes');
    const expires_at = parseFutureExpiry(dto.expires_at) ?? null;
    assertMayGrant(this.config, principal, formatPermissionList(scopes), `key "${dto.name}"`);
    const value = generateManagementKeyValue();
    const repo = this.dataSource.getRepository(ManagementKeyEntity);
    const key = await repo.save(
      repo.create({
        id: randomUUID(),
        name: dto.name,
        key_hash: hashCredential(value),
        scopes,
        expires_at,
        last_used_at: null,
        created_by: principal ? (principal.id ?? principal.kind) : null,
      }),
    );
    return { ...ManagementKeysService.toView(key), value };
  }

  async update(
    id: string,
    dto: UpdateManagementKeyDto,
    principal: Principal | undefined,
  ): Promise<ManagementKeyEntity> {
    const key = await this.get(id);
    if (dto.scopes !== undefined) {
      key.scopes = parsePermissionList(dto.scopes, 'scopes');
      assertMayGrant(this.config, principal, formatPermissionList(key.scopes), `key "${key.name}"`);
    }
    if (dto.expires_at !== undefined) key.expires_at = parseFutureExpiry(dto.expires_at) ?? null;
    if (dto.name !== undefined) key.name = dto.name;
    return this.dataSource.getRepository(ManagementKeyEntity).save(key);
  }

  async delete(id: string): Promise<void> {
    const key = await this.get(id);
    await this.dataSource.getRepository(ManagementKeyEntity).delete({ id: key.id });
    this.lastUsedWrites.delete(key.id);
  }

  /**
   * The key presented as `Authorization: Bearer gwm_...`, or null when unknown or expired. Looked up by its hash,
   * which is the unique index key: no stored value is ever compared byte by byte with the input.
   */
  async authenticate(token: string): Promise<ManagementKeyEntity | null> {
    if (!token.startsWith(MANAGEMENT_KEY_PREFIX)) return null;
    const key = await this.dataSource.getRepository(ManagementKeyEntity).findOneBy({ key_hash: hashCredential(token) });
    if (!key) return null;
    if (key.expires_at && key.expires_at.getTime() <= Date.now()) return null;
    this.touch(key);
    return key;
  }

  /** Fire-and-forget `last_used_at`, at most once a minute per key and process. */
  private touch(key: ManagementKeyEntity): void {
    const now = Date.now();
    const last = this.lastUsedWrites.get(key.id) ?? key.last_used_at?.getTime() ?? 0;
    if (now - last < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWrites.set(key.id, now);
    this.dataSource
      .getRepository(ManagementKeyEntity)
      .update({ id: key.id }, { last_used_at: new Date(now), updated_at: () => 'updated_at' })
      .catch((err: unknown) => this.logger.warn({ err, key_id: key.id }, 'could not record management key use'));
  }
}
