import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type FindOptionsWhere, type Repository } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { REDACTED } from '../../../core/secrets/secret-value.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import { findNewestFirst } from '../../../core/persistence/newest-first-page.js';
import { AgentPushConfigEntity } from './entities/agent-push-config.entity.js';

/** A push config as A2A v1 writes it (TaskPushNotificationConfig, ProtoJSON). */
export interface WirePushConfig {
  tenant?: string;
  id?: string;
  taskId?: string;
  url?: string;
  token?: string;
  authentication?: { scheme?: string; credentials?: string } | null;
}

export interface PushConfigFilters {
  agent_name?: string;
  task_id?: string;
  limit: number;
  offset: number;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Stores client push configs (encrypted) and the tokens the gateway minted for the upstream's callbacks. */
@Injectable()
export class PushConfigsService {
  constructor(
    @InjectRepository(AgentPushConfigEntity) private readonly repo: Repository<AgentPushConfigEntity>,
    private readonly secrets: SecretsService,
  ) {}

  /**
   * Stores the client's config and returns the config the upstream gets instead: the gateway's callback URL and a
   * freshly minted token (also as Bearer authentication). A config with the same agent/task/id is replaced.
   */
  async register(input: {
    agentName: string;
    virtualKeyId: string | null;
    taskId: string | null;
    client: WirePushConfig;
    baseUrl: string;
  }): Promise<{ row: AgentPushConfigEntity; upstream: WirePushConfig }> {
    const { client } = input;
    if (typeof client.url !== 'string' || !/^https?:\/\//i.test(client.url)) {
      throw GatewayException.validation(
        'taskPushNotificationConfig.url',
        'push config url must be an absolute http(s) URL',
      );
    }
    const id = randomUUID();
    const configId = typeof client.id === 'string' && client.id.length > 0 ? client.id.slice(0, 255) : id;
    const token = randomBytes(32).toString('base64url');
    const auth =
      client.authentication && typeof client.authentication === 'object' && client.authentication.scheme
        ? { scheme: String(client.authentication.scheme), credentials: String(client.authentication.credentials ?? '') }
        : null;
    if (input.taskId) {
      await this.repo.delete({ agent_name: input.agentName, task_id: input.taskId, config_id: configId });
    }
    const row = this.repo.create({
      id,
      agent_name: input.agentName,
      task_id: input.taskId,
      config_id: configId,
      client_url: this.secrets.encrypt(client.url),
      client_token: client.token ? this.secrets.encrypt(client.token) : null,
      client_authentication: auth ? this.secrets.encrypt(JSON.stringify(auth)) : null,
      virtual_key_id: input.virtualKeyId,
      gateway_token_hash: sha256Hex(token),
      created_at: new Date(),
    });
    await this.repo.insert(row);
    const callback = `${input.baseUrl}/agents/a2a/${encodeURIComponent(input.agentName)}/push?config=${id}`;
    const upstream: WirePushConfig = {
      ...(client.tenant ? { tenant: client.tenant } : {}),
      id: configId,
      ...(client.taskId ? { taskId: client.taskId } : {}),
      url: callback,
      token,
      authentication: { scheme: 'Bearer', credentials: token },
    };
    return { row, upstream };
  }

  /** Binds a config registered before its task existed to the task the upstream created. */
  async bindTask(id: string, taskId: string): Promise<void> {
    if (!taskId) return;
    await this.repo.update({ id, task_id: IsNull() }, { task_id: taskId });
  }

  async remove(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  findById(id: string): Promise<AgentPushConfigEntity | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return Promise.resolve(null);
    return this.repo.findOne({ where: { id } });
  }

  find(agentName: string, taskId: string, configId: string): Promise<AgentPushConfigEntity | null> {
    return this.repo.findOne({ where: { agent_name: agentName, task_id: taskId, config_id: configId } });
  }

  listForTask(agentName: string, taskId: string): Promise<AgentPushConfigEntity[]> {
    return this.repo.find({ where: { agent_name: agentName, task_id: taskId }, order: { created_at: 'ASC' } });
  }

  async listManagement(filters: PushConfigFilters): Promise<{ rows: AgentPushConfigEntity[]; total: number }> {
    const where: FindOptionsWhere<AgentPushConfigEntity> = {};
    if (filters.agent_name) where.agent_name = filters.agent_name;
    if (filters.task_id) where.task_id = filters.task_id;
    return findNewestFirst(this.repo, where, filters);
  }

  /** Constant-time check of a callback token against the stored hash. */
  tokenMatches(row: AgentPushConfigEntity, presented: string): boolean {
    const a = Buffer.from(sha256Hex(presented), 'hex');
    const b = Buffer.from(row.gateway_token_hash, 'hex');
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** The client's own config, decrypted (A2A Get/List answers; the client set these values itself). */
  clientView(row: AgentPushConfigEntity): WirePushConfig {
    const secret = this.clientSecrets(row);
    return {
      id: row.config_id,
      taskId: row.task_id ?? '',
      url: secret.url,
      ...(secret.token ? { token: secret.token } : {}),
      ...(secret.authentication ? { authentication: secret.authentication } : {}),
    };
  }

  clientSecrets(row: AgentPushConfigEntity): {
    url: string;
    token?: string;
    authentication?: { scheme: string; credentials: string };
  } {
    return {
      url: this.secrets.decrypt(row.client_url),
      token: row.client_token ? this.secrets.decrypt(row.client_token) : undefined,
      authentication: row.client_authentication
        ? (JSON.parse(this.secrets.decrypt(row.client_authentication)) as { scheme: string; credentials: string })
        : undefined,
    };
  }

  /** Management view: URL without query or user info, token and credentials redacted. */
  managementView(row: AgentPushConfigEntity) {
    const secret = this.clientSecrets(row);
    let url: string;
    try {
      const parsed = new URL(secret.url);
      parsed.username = '';
      parsed.password = '';
      if (parsed.search) parsed.search = `?${REDACTED}`;
      url = parsed.toString();
    } catch {
      url = REDACTED;
    }
    return {
      id: row.id,
      agent_name: row.agent_name,
      task_id: row.task_id,
      config_id: row.config_id,
      url,
      token: secret.token ? REDACTED : null,
      authentication: secret.authentication ? { scheme: secret.authentication.scheme, credentials: REDACTED } : null,
      virtual_key_id: row.virtual_key_id,
      created_at: row.created_at.toISOString(),
    };
  }
}
