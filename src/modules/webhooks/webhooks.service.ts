import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { QueryFailedError, type Repository } from 'typeorm';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import { sealForwardableHeaders } from '../../core/outbound/forwardable-headers.js';
import { REDACTED, SecretInputError, type SecretInput, type StoredSecret } from '../../core/secrets/secret-value.js';
import { SecretsService } from '../../core/secrets/secrets.service.js';
import { isId } from '../../core/validation/ids.js';
import { newSigningSecret, RESERVED_WEBHOOK_HEADERS } from './delivery/webhook-signature.js';
import type { CreateWebhookDto, UpdateWebhookDto, WebhookViewDto } from './dto/webhook.dto.js';
import { WebhookEntity } from './entities/webhook.entity.js';
import { WebhookDirectory } from './webhook-directory.js';
import { webhookUrlRefusal } from './webhook-url.js';

const invalid = (param: string, message: string) => GatewayException.validation(param, `${param} ${message}`);

/** A webhook with its signing secret in clear: the answer of create and rotate-secret, the one time it is shown. */
export interface WebhookWithSecret {
  webhook: WebhookEntity;
  secret: string;
}

/** Webhook registrations (`/api/webhooks`): validation, sealed headers and secret, redacted views. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectRepository(WebhookEntity) private readonly repository: Repository<WebhookEntity>,
    private readonly directory: WebhookDirectory,
    private readonly secrets: SecretsService,
    private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  list(): Promise<WebhookEntity[]> {
    return this.repository.find({ order: { name: 'ASC' } });
  }

  async get(id: string): Promise<WebhookEntity> {
    const found = isId(id) ? await this.repository.findOneBy({ id }) : null;
    if (!found) throw GatewayException.notFound('webhook', `Webhook ${id} does not exist`);
    return found;
  }

  async create(dto: CreateWebhookDto): Promise<WebhookWithSecret> {
    this.checkUrl(dto.url);
    const secret = newSigningSecret();
    const entity = this.repository.create({
      id: randomUUID(),
      name: dto.name,
      url: dto.url,
      description: dto.description ?? null,
      enabled: dto.enabled ?? true,
      headers: this.sealHeaders(dto.headers ?? {}, undefined),
      secret_ciphertext: this.secrets.encrypt(secret),
    });
    if (await this.repository.existsBy({ name: entity.name })) throw nameTaken(entity.name);
    const saved = await this.store(() => this.repository.insert(entity), entity);
    return { webhook: saved, secret };
  }

  /** PUT: the fields sent replace the stored ones. */
  async update(id: string, dto: UpdateWebhookDto): Promise<WebhookEntity> {
    const previous = await this.get(id);
    if (dto.url !== undefined) this.checkUrl(dto.url);
    const name = dto.name ?? previous.name;
    if (name !== previous.name && (await this.repository.existsBy({ name }))) throw nameTaken(name);
    const entity = this.repository.create({
      ...previous,
      name,
      url: dto.url ?? previous.url,
      description: dto.description !== undefined ? dto.description : previous.description,
      enabled: dto.enabled ?? previous.enabled,
      headers: dto.headers ? this.sealHeaders(dto.headers, previous.headers) : previous.headers,
    });
    return this.store(() => this.repository.save(entity), entity);
  }

  async remove(id: string): Promise<void> {
    const entity = await this.get(id);
    // Its deliveries go with it (foreign key cascade); a job still queued for one finds nothing and stops.
    await this.repository.delete({ id: entity.id });
    await this.directory.changed();
  }

  /** A new signing secret, in force at once (deliveries are signed when sent, so pending ones use the new one). */
  async rotateSecret(id: string): Promise<WebhookWithSecret> {
    const entity = await this.get(id);
    const secret = newSigningSecret();
    await this.repository.update({ id: entity.id }, { secret_ciphertext: this.secrets.encrypt(secret) });
    return { webhook: await this.get(entity.id), secret };
  }

  view(entity: WebhookEntity, secret?: string): WebhookViewDto {
    return {
      id: entity.id,
      name: entity.name,
      url: entity.url,
      description: entity.description,
      enabled: entity.enabled,
      headers: this.secrets.viewMap(entity.headers) ?? {},
      secret: secret ?? REDACTED,
      created_at: entity.created_at.toISOString(),
      updated_at: entity.updated_at.toISOString(),
    };
  }

  private checkUrl(url: string): void {
    const refusal = webhookUrlRefusal(url, this.config.outbound);
    if (refusal) throw invalid('url', `cannot be reached: ${refusal}`);
  }

  private sealHeaders(
    input: Record<string, SecretInput>,
    previous: Record<string, StoredSecret> | undefined,
  ): Record<string, StoredSecret> {
    return sealForwardableHeaders(
      input,
      previous,
      'headers',
      (value, stored, param) => {
        try {
          return this.secrets.seal(value, stored);
        } catch (err) {
          if (err instanceof SecretInputError) throw invalid(param, err.message);
          throw err;
        }
      },
      RESERVED_WEBHOOK_HEADERS,
    );
  }

  /** Runs a write; a name taken meanwhile is 409, anything else a logged 500 with nothing internal in the body. */
  private async store(write: () => Promise<unknown>, entity: WebhookEntity): Promise<WebhookEntity> {
    try {
      await write();
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string } | undefined)?.code === '23505') {
        throw nameTaken(entity.name);
      }
      this.logger.error({ err, webhook: entity.name }, 'webhook could not be stored');
      throw new GatewayException(500, 'internal_error', 'Webhook could not be stored', { reason: 'gateway_internal' });
    }
    await this.directory.changed();
    return this.get(entity.id);
  }
}

function nameTaken(name: string): GatewayException {
  return GatewayException.conflict(`Webhook ${name} already exists`, 'name');
}
