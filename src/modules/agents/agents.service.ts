import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { QueryFailedError, type Repository } from 'typeorm';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { CacheFactory } from '../../core/cache/cache.factory.js';
import type { InvalidatedCache } from '../../core/cache/invalidated-cache.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import { VirtualKeysService } from '../governance/index.js';
import { AgentCardFetchError, AgentCardFetcher } from './a2a/agent-card.fetcher.js';
import { AgentCardService } from './a2a/agent-card.service.js';
import { securitySchemesProblem, type ValidatedCard } from './a2a/agent-card.validator.js';
import { AgentUpstreamAuth } from './a2a/agent-upstream-auth.js';
import { UpstreamAuthSealer } from './a2a/upstream-auth.sealer.js';
import type { AgentInspectionDto, AgentRegistrationViewDto } from './dto/agent-view.dto.js';
import type { CreateAgentDto, InspectAgentDto, UpdateAgentDto } from './dto/create-agent.dto.js';
import { AgentEntity, type StoredUpstreamAuth } from './entities/agent.entity.js';

const invalid = (param: string, message: string) => GatewayException.validation(param, `${param} ${message}`);

/** Invalidation topic of agent registrations; a message names the changed agent. */
const REGISTRATIONS_TOPIC = 'agents:registrations';

/** Registrations of upstream A2A v1 agents: validation, card checks, storage, redacted views. */
@Injectable()
export class AgentsService {
  /** The data plane reads registrations from memory; every write drops the agent's entry on every replica. */
  private readonly registrations: InvalidatedCache<AgentEntity>;

  constructor(
    @InjectRepository(AgentEntity) private readonly agents: Repository<AgentEntity>,
    private readonly sealer: UpstreamAuthSealer,
    private readonly fetcher: AgentCardFetcher,
    private readonly cards: AgentCardService,
    private readonly upstreamAuth: AgentUpstreamAuth,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly virtualKeys: VirtualKeysService,
    caches: CacheFactory,
  ) {
    this.registrations = caches.create<AgentEntity>({
      topic: REGISTRATIONS_TOPIC,
      ttlMs: 5 * 60_000,
      negativeTtlMs: 5_000,
      maxEntries: 10_000,
    });
  }

  async list(): Promise<AgentEntity[]> {
    return this.agents.find({ order: { name: 'ASC' } });
  }

  async get(name: string): Promise<AgentEntity> {
    const agent = await this.agents.findOneBy({ name });
    if (!agent) throw GatewayException.notFound('agent', `Agent ${name} is not registered`);
    return agent;
  }

  /** For the data plane: a registered, enabled agent, else 404 `agent_not_found`. */
  async getForDataPlane(name: string): Promise<AgentEntity> {
    const agent = await this.registrations.getOrLoad(name, (key) => this.agents.findOneBy({ name: key }));
    if (!agent || !agent.enabled) {
      throw GatewayException.notFound('agent', `Agent ${name} is not registered or is disabled`);
    }
    return agent;
  }

  async create(dto: CreateAgentDto): Promise<AgentEntity> {
    if (await this.agents.existsBy({ name: dto.name })) {
      throw GatewayException.conflict(`Agent ${dto.name} is already registered`, 'name');
    }
    const { entity, card } = await this.prepare(dto, dto.name, null);
    const saved = await this.store(() => this.agents.insert(entity), dto.name);
    await this.registrations.invalidate(dto.name);
    if (card) this.cards.remember(saved, card);
    return saved;
  }

  /** PUT: replaces the whole registration; `<REDACTED>` secrets keep their stored values. */
  async update(name: string, dto: UpdateAgentDto): Promise<AgentEntity> {
    if (dto.name !== undefined && dto.name !== name) {
      throw invalid('name', `must equal the agent name in the path (${name}); agents cannot be renamed`);
    }
    const previous = await this.get(name);
    const { entity, card } = await this.prepare(dto, name, previous);
    entity.created_at = previous.created_at;
    const saved = await this.store(() => this.agents.save(entity), name);
    await this.registrations.invalidate(name);
    // Cached tokens stay: they are keyed by a fingerprint of the OAuth settings, so changed settings miss anyway.
    this.cards.invalidate(name);
    if (card) this.cards.remember(saved, card);
    return saved;
  }

  async remove(name: string): Promise<void> {
    const result = await this.agents.delete({ name });
    if (!result.affected) throw GatewayException.notFound('agent', `Agent ${name} is not registered`);
    await this.registrations.invalidate(name);
    this.cards.invalidate(name);
    this.upstreamAuth.forget(name);
  }

  /** Fetches and validates a card without saving anything. */
  async inspect(dto: InspectAgentDto): Promise<AgentInspectionDto> {
    const discovery = await this.sealer.seal(dto.discovery_auth, null, 'discovery_auth');
    const card = await this.fetchForRegistration(dto.agent_card_url, discovery, `inspect:${dto.agent_card_url}`);
    return {
      card: card.card,
      interfaces: card.interfaces,
      security_schemes: card.securitySchemes,
      security_requirements: card.securityRequirements,
      extensions: card.extensions,
    };
  }

  view(agent: AgentEntity): AgentRegistrationViewDto {
    return {
      name: agent.name,
      agent_card_url: agent.agent_card_url,
      enabled: agent.enabled,
      allow_by_default: agent.allow_by_default,
      forward_accepted_credential: agent.forward_accepted_credential,
      forward_accepted_credential_overrides_auth: agent.forward_accepted_credential_overrides_auth,
      ...(agent.discovery_auth ? { discovery_auth: this.sealer.view(agent.discovery_auth) } : {}),
      ...(agent.runtime_auth ? { runtime_auth: this.sealer.view(agent.runtime_auth) } : {}),
      extension_uris: agent.extension_uris,
      virtual_key_ids: agent.virtual_key_ids,
      created_at: agent.created_at.toISOString(),
      updated_at: agent.updated_at.toISOString(),
    };
  }

  // ---- validation and sealing ----

  private async prepare(
    dto: CreateAgentDto | UpdateAgentDto,
    name: string,
    previous: AgentEntity | null,
  ): Promise<{ entity: AgentEntity; card?: ValidatedCard }> {
    const discovery = await this.sealer.seal(dto.discovery_auth, previous?.discovery_auth ?? null, 'discovery_auth');
    const runtime = await this.sealer.seal(dto.runtime_auth, previous?.runtime_auth ?? null, 'runtime_auth');
    const virtualKeyIds = await this.checkVirtualKeyIds(dto.virtual_key_ids ?? []);
    const extensionUris = dto.extension_uris ?? [];
    checkExtensionUris(extensionUris);
    const enabled = dto.enabled ?? true;

    let card: ValidatedCard | undefined;
    if (enabled) {
      card = await this.fetchForRegistration(dto.agent_card_url, discovery, `${name}:discovery`);
      checkExtensionsAgainstCard(extensionUris, card);
      for (const [auth, path] of [
        [runtime, 'runtime_auth'],
        [discovery, 'discovery_auth'],
      ] as const) {
        if (!auth?.security_schemes) continue;
        const problem = securitySchemesProblem(auth.security_schemes, card);
        if (problem) throw GatewayException.validation(`${path}.security_schemes`, problem);
      }
    }

    const entity = this.agents.create({
      name,
      agent_card_url: dto.agent_card_url,
      enabled,
      allow_by_default: dto.allow_by_default ?? false,
      forward_accepted_credential: dto.forward_accepted_credential ?? false,
      forward_accepted_credential_overrides_auth: dto.forward_accepted_credential_overrides_auth ?? false,
      discovery_auth: discovery,
      runtime_auth: runtime,
      extension_uris: extensionUris,
      virtual_key_ids: virtualKeyIds,
    });
    return { entity, card };
  }

  private async fetchForRegistration(
    url: string,
    discovery: StoredUpstreamAuth | null,
    cacheKey: string,
  ): Promise<ValidatedCard> {
    try {
      return await this.fetcher.fetch(url, discovery, cacheKey);
    } catch (err) {
      if (err instanceof AgentCardFetchError) {
        throw GatewayException.validation('agent_card_url', `agent_card_url cannot be registered: ${err.message}`);
      }
      throw err;
    }
  }

  private async checkVirtualKeyIds(ids: string[]): Promise<string[]> {
    const seen = new Set<string>();
    ids.forEach((id: unknown, i) => {
      if (typeof id !== 'string') throw invalid(`virtual_key_ids[${i}]`, 'must be a string');
      if (!id.trim()) throw invalid(`virtual_key_ids[${i}]`, 'must not be empty');
      if (seen.has(id)) throw invalid(`virtual_key_ids[${i}]`, `is a duplicate of ${id}`);
      seen.add(id);
    });
    if (!ids.length) return ids;
    const existing = new Set(await this.virtualKeys.findExistingIds(ids));
    ids.forEach((id, i) => {
      if (!existing.has(id)) throw invalid(`virtual_key_ids[${i}]`, `names no existing virtual key (${id})`);
    });
    return ids;
  }

  /** Runs a write; a name taken meanwhile is 409, anything else a logged 500 with nothing internal in the body. */
  private async store(write: () => Promise<unknown>, name: string): Promise<AgentEntity> {
    try {
      await write();
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string } | undefined)?.code === '23505') {
        throw GatewayException.conflict(`Agent ${name} is already registered`, 'name');
      }
      this.logger.error({ err, agent: name }, 'agent registration could not be stored');
      throw new GatewayException(500, 'internal_error', 'Agent registration could not be stored', {
        reason: 'gateway_internal',
      });
    }
    return this.get(name);
  }
}

function checkExtensionUris(uris: string[]): void {
  const seen = new Set<string>();
  uris.forEach((uri: unknown, i) => {
    if (typeof uri !== 'string') throw invalid(`extension_uris[${i}]`, 'must be a string');
    let absolute: boolean;
    try {
      absolute = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) && !!new URL(uri).protocol;
    } catch {
      absolute = false;
    }
    if (!absolute) throw invalid(`extension_uris[${i}]`, 'must be an absolute URI');
    if (seen.has(uri)) throw invalid(`extension_uris[${i}]`, `is a duplicate of ${uri}`);
    seen.add(uri);
  });
}

function checkExtensionsAgainstCard(uris: string[], card: ValidatedCard): void {
  const declared = new Set(card.extensions.map((e) => e.uri));
  uris.forEach((uri, i) => {
    if (!declared.has(uri)) throw invalid(`extension_uris[${i}]`, `(${uri}) is not declared by the agent card`);
  });
  const listed = new Set(uris);
  const missing = card.extensions.filter((e) => e.required && !listed.has(e.uri)).map((e) => e.uri);
  if (missing.length) {
    throw invalid('extension_uris', `must list the extensions the agent card marks required: ${missing.join(', ')}`);
  }
}
