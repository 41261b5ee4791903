import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { QueryFailedError, type Repository } from 'typeorm';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { sealForwardableHeaders, UNFORWARDABLE_HEADERS } from '../../../core/outbound/forwardable-headers.js';
import {
  ENV_NAME_PATTERN,
  SecretInputError,
  type SecretInput,
  type StoredSecret,
} from '../../../core/secrets/secret-value.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import { VirtualKeysService } from '../../governance/index.js';
import {
  DEFAULT_TOOL_EXECUTION_TIMEOUT_S,
  type CreateMcpClientDto,
  type McpClientListDto,
  type McpClientQueryDto,
  type McpClientViewDto,
  type UpdateMcpClientDto,
} from './dto/mcp-client.dto.js';
import { McpClientEntity, type StoredStdioConfig, type StoredVkConfig } from './entities/mcp-client.entity.js';
import type { LiveConnection } from './live-connection.js';
import { connectionFingerprint, McpConnectionRegistry } from './mcp-connection.registry.js';
import { urlRefusal } from './mcp-outbound-fetch.js';

const invalid = (param: string, message: string) => GatewayException.validation(param, `${param} ${message}`);
const MAX_TOOL_PRICE_USD = 1_000_000;

/** Registrations of upstream MCP servers: validation, the connect check, storage, redacted views. */
@Injectable()
export class McpClientsService {
  constructor(
    @InjectRepository(McpClientEntity) private readonly repository: Repository<McpClientEntity>,
    private readonly registry: McpConnectionRegistry,
    private readonly secrets: SecretsService,
    private readonly virtualKeys: VirtualKeysService,
    private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async list(query: McpClientQueryDto): Promise<McpClientListDto> {
    const limit = query.limit ?? 25;
    const offset = query.offset ?? 0;
    const search = query.search?.toLowerCase();
    const matching = (await this.repository.find({ order: { name: 'ASC' } }))
      .filter((c) => !search || c.name.toLowerCase().includes(search))
      .filter((c) => !query.connection_type || c.connection_type === query.connection_type)
      .map((c) => this.view(c))
      .filter((v) => !query.state || v.state === query.state);
    const clients = matching.slice(offset, offset + limit);
    return { clients, count: clients.length, total_count: matching.length, limit, offset };
  }

  async get(id: string): Promise<McpClientEntity> {
    const found = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
      ? await this.repository.findOneBy({ id })
      : null;
    if (!found) throw GatewayException.notFound('mcp_client', `MCP client ${id} does not exist`);
    return found;
  }

  async create(dto: CreateMcpClientDto): Promise<McpClientEntity> {
    const entity = await this.prepare(dto, dto.name, dto.connection_type, null);
    entity.id = randomUUID();
    if (await this.repository.existsBy({ name: entity.name })) {
      throw GatewayException.conflict(`MCP client ${entity.name} already exists`, 'name');
    }
    const connection = entity.disabled ? undefined : await this.connectForWrite(entity);
    let saved: McpClientEntity;
    try {
      saved = await this.store(() => this.repository.insert(entity), entity);
    } catch (err) {
      await connection?.close();
      throw err;
    }
    await this.registry.adopt(saved, connection);
    await this.registry.publish('changed', saved.id);
    return saved;
  }

  /** PUT: the fields sent replace the stored ones; a change of what the connection is made of reconnects first. */
  async update(id: string, dto: UpdateMcpClientDto): Promise<McpClientEntity> {
    const previous = await this.get(id);
    if (dto.connection_type !== undefined && dto.connection_type !== previous.connection_type) {
      throw invalid('connection_type', `cannot be changed (it is ${previous.connection_type})`);
    }
    const name = dto.name ?? previous.name;
    const entity = await this.prepare(dto, name, previous.connection_type, previous);
    entity.id = previous.id;
    entity.created_at = previous.created_at;
    if (name !== previous.name && (await this.repository.existsBy({ name }))) {
      throw GatewayException.conflict(`MCP client ${name} already exists`, 'name');
    }
    const reconnect = !entity.disabled && connectionFingerprint(entity) !== connectionFingerprint(previous);
    const connection = reconnect ? await this.connectForWrite(entity) : undefined;
    let saved: McpClientEntity;
    try {
      saved = await this.store(() => this.repository.save(entity), entity);
    } catch (err) {
      await connection?.close();
      throw err;
    }
    await this.registry.adopt(saved, connection);
    await this.registry.publish('changed', saved.id);
    return saved;
  }

  async remove(id: string): Promise<void> {
    const entity = await this.get(id);
    await this.repository.delete({ id: entity.id });
    await this.registry.forget(entity.id);
    await this.registry.publish('changed', entity.id);
  }

  /** Reconnects now on this replica (and asks the others to); answers with the outcome in the view. */
  async reconnect(id: string): Promise<McpClientEntity> {
    const entity = await this.get(id);
    if (entity.disabled) throw invalid('disabled', 'is true: enable the client before reconnecting it');
    let connection = this.registry.connectionOf(entity.id);
    if (!connection) {
      await this.registry.adopt(entity);
      connection = this.registry.connectionOf(entity.id);
    }
    await connection?.connect().catch(() => connection.start());
    await this.registry.publish('reconnect', entity.id);
    return entity;
  }

  async refreshTools(id: string): Promise<number> {
    const entity = await this.get(id);
    if (entity.disabled) throw invalid('disabled', 'is true: a disabled client has no connection');
    const connection = this.registry.connectionOf(entity.id);
    let count: number;
    try {
      if (!connection) throw new Error('no connection');
      count = await connection.refreshTools();
    } catch (err) {
      throw new GatewayException(
        502,
        'upstream_error',
        `MCP client ${entity.name}: tools could not be listed: ${(err as Error).message}`,
        {
          reason: 'provider_connection_failed',
        },
      );
    }
    await this.registry.publish('refresh', entity.id);
    return count;
  }

  view(entity: McpClientEntity): McpClientViewDto {
    const live = this.registry.stateOf(entity);
    return {
      id: entity.id,
      name: entity.name,
      connection_type: entity.connection_type,
      ...(entity.connection_string ? { connection_string: entity.connection_string } : {}),
      ...(entity.stdio_config
        ? {
            stdio_config: {
              command: entity.stdio_config.command,
              args: entity.stdio_config.args,
              envs: this.secrets.viewMap(entity.stdio_config.envs) ?? {},
            },
          }
        : {}),
      headers: this.secrets.viewMap(entity.headers) ?? {},
      tools_to_execute: entity.tools_to_execute,
      tools_to_auto_execute: entity.tools_to_auto_execute,
      tool_execution_timeout: entity.tool_execution_timeout,
      tool_pricing: entity.tool_pricing,
      allow_on_all_virtual_keys: entity.allow_on_all_virtual_keys,
      disabled: entity.disabled,
      vk_configs: entity.vk_configs,
      state: live.state,
      tools: live.tools.map((t) => ({
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        input_schema: t.inputSchema,
      })),
      last_error: live.last_error,
      created_at: entity.created_at.toISOString(),
      updated_at: entity.updated_at.toISOString(),
    };
  }

  // ---- validation ----

  private async prepare(
    dto: CreateMcpClientDto | UpdateMcpClientDto,
    name: string,
    type: McpClientEntity['connection_type'],
    previous: McpClientEntity | null,
  ): Promise<McpClientEntity> {
    const pick = <K extends keyof McpClientEntity>(key: K, fallback: McpClientEntity[K]): McpClientEntity[K] =>
      (dto as Record<string, unknown>)[key] !== undefined
        ? ((dto as Record<string, unknown>)[key] as McpClientEntity[K])
        : previous
          ? previous[key]
          : fallback;

    let connectionString: string | null = null;
    let stdio: StoredStdioConfig | null = null;
    let headers: Record<string, StoredSecret> = {};
    if (type === 'stdio') {
      if (dto.connection_string !== undefined) throw invalid('connection_string', 'is not used by stdio clients');
      if (dto.headers !== undefined && Object.keys(dto.headers).length) {
        throw invalid('headers', 'are not used by stdio clients');
      }
      if (dto.stdio_config) stdio = this.sealStdio(dto.stdio_config, previous?.stdio_config ?? null);
      else if (previous?.stdio_config) stdio = previous.stdio_config;
      else throw invalid('stdio_config', 'is required when connection_type is stdio');
    } else {
      if (dto.stdio_config !== undefined) throw invalid('stdio_config', `is not used by ${type} clients`);
      connectionString = dto.connection_string ?? previous?.connection_string ?? null;
      if (!connectionString) throw invalid('connection_string', `is required when connection_type is ${type}`);
      const refusal = urlRefusal(connectionString, this.config.outbound);
      if (refusal) throw invalid('connection_string', `cannot be reached: ${refusal}`);
      headers = dto.headers
        ? sealForwardableHeaders(
            dto.headers,
            previous?.headers,
            'headers',
            (v, p, param) => this.seal(v, p, param),
            UNFORWARDABLE_HEADERS,
          )
        : (previous?.headers ?? {});
    }

    const toolsToExecute = pick('tools_to_execute', ['*']);
    checkToolList(toolsToExecute, 'tools_to_execute');
    const autoExecute = pick('tools_to_auto_execute', []);
    checkToolList(autoExecute, 'tools_to_auto_execute');
    autoExecute.forEach((tool, i) => {
      if (tool === '*' && !toolsToExecute.includes('*')) {
        throw invalid(`tools_to_auto_execute[${i}]`, 'can be * only when tools_to_execute is ["*"]');
      }
      if (!toolsToExecute.includes('*') && !toolsToExecute.includes(tool)) {
        throw invalid(`tools_to_auto_execute[${i}]`, `(${tool}) is not in tools_to_execute`);
      }
    });
    const pricing = pick('tool_pricing', {});
    for (const [tool, price] of Object.entries(pricing)) {
      if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > MAX_TOOL_PRICE_USD) {
        throw invalid(`tool_pricing.${tool}`, `must be a number of USD from 0 to ${MAX_TOOL_PRICE_USD}`);
      }
    }
    const vkConfigs = await this.checkVkConfigs(pick('vk_configs', []));

    return this.repository.create({
      name,
      connection_type: type,
      connection_string: connectionString,
      stdio_config: stdio,
      headers,
      tools_to_execute: toolsToExecute,
      tools_to_auto_execute: autoExecute,
      tool_execution_timeout: pick('tool_execution_timeout', DEFAULT_TOOL_EXECUTION_TIMEOUT_S),
      tool_pricing: pricing,
      allow_on_all_virtual_keys: pick('allow_on_all_virtual_keys', false),
      disabled: pick('disabled', false),
      vk_configs: vkConfigs,
    });
  }

  private sealStdio(
    input: NonNullable<CreateMcpClientDto['stdio_config']>,
    previous: StoredStdioConfig | null,
  ): StoredStdioConfig {
    const envs: Record<string, StoredSecret> = {};
    for (const [name, value] of Object.entries(input.envs ?? {})) {
      if (!ENV_NAME_PATTERN.test(name))
        throw invalid(`stdio_config.envs.${name}`, 'is not a valid environment variable name');
      envs[name] = this.seal(value, previous?.envs[name], `stdio_config.envs.${name}`);
    }
    return { command: input.command, args: input.args ?? [], envs };
  }

  private seal(value: SecretInput, previous: StoredSecret | undefined, param: string): StoredSecret {
    try {
      return this.secrets.seal(value, previous);
    } catch (err) {
      if (err instanceof SecretInputError) throw invalid(param, err.message);
      throw err;
    }
  }

  private async checkVkConfigs(configs: StoredVkConfig[]): Promise<StoredVkConfig[]> {
    const seen = new Set<string>();
    const out = configs.map((c, i) => {
      if (seen.has(c.virtual_key_id))
        throw invalid(`vk_configs[${i}].virtual_key_id`, `is a duplicate of ${c.virtual_key_id}`);
      seen.add(c.virtual_key_id);
      if (c.tools_to_execute) checkToolList(c.tools_to_execute, `vk_configs[${i}].tools_to_execute`);
      return {
        virtual_key_id: c.virtual_key_id,
        ...(c.tools_to_execute ? { tools_to_execute: c.tools_to_execute } : {}),
      };
    });
    if (!out.length) return out;
    const existing = new Set(await this.virtualKeys.findExistingIds(out.map((c) => c.virtual_key_id)));
    out.forEach((c, i) => {
      if (!existing.has(c.virtual_key_id)) {
        throw invalid(`vk_configs[${i}].virtual_key_id`, `names no existing virtual key (${c.virtual_key_id})`);
      }
    });
    return out;
  }

  /** Connects and lists tools before anything is saved; a failure is a 400 naming the connection field. */
  private async connectForWrite(entity: McpClientEntity): Promise<LiveConnection> {
    const connection = this.registry.newConnection(entity);
    try {
      await connection.connect();
    } catch (err) {
      await connection.close();
      const param = entity.connection_type === 'stdio' ? 'stdio_config' : 'connection_string';
      if (err instanceof GatewayException && err.code === 'secret_unresolved') throw err;
      throw invalid(param, `could not be connected to: ${connection.lastError ?? (err as Error).message}`);
    }
    return connection;
  }

  /** Runs a write; a name taken meanwhile is 409, anything else a logged 500 with nothing internal in the body. */
  private async store(write: () => Promise<unknown>, entity: McpClientEntity): Promise<McpClientEntity> {
    try {
      await write();
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string } | undefined)?.code === '23505') {
        throw GatewayException.conflict(`MCP client ${entity.name} already exists`, 'name');
      }
      this.logger.error({ err, client: entity.name }, 'mcp client could not be stored');
      throw new GatewayException(500, 'internal_error', 'MCP client could not be stored', {
        reason: 'gateway_internal',
      });
    }
    return this.get(entity.id);
  }
}

function checkToolList(list: string[], path: string): void {
  const seen = new Set<string>();
  list.forEach((tool, i) => {
    if (seen.has(tool)) throw invalid(`${path}[${i}]`, `is a duplicate of ${tool}`);
    seen.add(tool);
  });
  if (list.includes('*') && list.length > 1) throw invalid(path, 'must be ["*"] alone when it contains *');
}
