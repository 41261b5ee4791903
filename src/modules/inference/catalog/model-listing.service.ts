import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { KeyStatusDto } from '../../../core/errors/gateway-error.dto.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { OutboundHttpService, readBodyCapped } from '../../../core/outbound/outbound-http.service.js';
import { OutboundAdapterIo } from './outbound-adapter-io.js';
import { adapterFor } from '../providers/registry.js';
import { type CatalogModel, type ListedModel, TOP_LEVEL_ARRAY } from '../providers/shared/provider-adapter.js';
import { providerTarget } from '../providers/shared/provider-target.js';
import { providerException } from '../providers/shared/provider-exception.js';
import type { ProviderModelDto, ProviderModelListDto } from './dto/models.dto.js';
import { ProviderCatalog } from './provider-catalog.service.js';
import { PriceTable } from '../pricing/price-table.js';
import type { ConfiguredKey, ConfiguredProvider } from './provider-snapshot.js';

/** Largest model list read from a provider (OpenRouter's is a few hundred KiB). */
const MAX_LIST_BYTES = 8 * 1024 * 1024;

interface KeyListing {
  status: KeyStatusDto & { provider: ProviderId };
  models: ListedModel[];
}

/**
 * `GET /api/models`: asks every enabled key of every configured provider for its models, in parallel. A key that
 * fails (no adapter yet, unresolvable secret, refused, unreachable) is reported in `key_statuses` with its
 * GatewayError; it never fails the whole call.
 */
@Injectable()
export class ModelListingService {
  constructor(
    private readonly catalog: ProviderCatalog,
    private readonly outbound: OutboundHttpService,
    private readonly io: OutboundAdapterIo,
    private readonly prices: PriceTable,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async list(only?: ProviderId): Promise<ProviderModelListDto> {
    const { models, statuses } = await this.collect(only);
    const list = models.map((m): ProviderModelDto => {
      const price = this.prices.catalogueRates(m.provider, m.ref.slice(m.provider.length + 1));
      return {
        id: m.ref,
        provider: m.provider,
        ...(m.owned_by === undefined ? {} : { owned_by: m.owned_by }),
        ...(m.created === undefined ? {} : { created: m.created }),
        ...(price === undefined ? {} : { catalogue_price: price }),
      };
    });
    return { models: list, count: list.length, key_statuses: statuses };
  }

  /** Every model of every provider, once, with what its provider said of it (the provider-format listings). */
  async models(): Promise<CatalogModel[]> {
    return (await this.collect()).models;
  }

  private async collect(only?: ProviderId): Promise<{ models: CatalogModel[]; statuses: KeyStatusDto[] }> {
    const snapshot = await this.catalog.snapshot();
    const providers = snapshot.all().filter((p) => only === undefined || p.id === only);
    const listings = await Promise.all(
      providers.flatMap((p) => p.keys.filter((k) => k.enabled).map((k) => this.listKey(p, k))),
    );
    const models = new Map<string, CatalogModel>();
    for (const listing of listings) {
      const provider = listing.status.provider;
      for (const model of listing.models) {
        const ref = `${provider}/${model.id}`;
        if (!models.has(ref)) models.set(ref, { ...model, provider, ref });
      }
    }
    return { models: [...models.values()], statuses: listings.map((l) => l.status) };
  }

  private async listKey(provider: ConfiguredProvider, key: ConfiguredKey): Promise<KeyListing> {
    try {
      const models = await this.fetchModels(provider, key);
      return { status: { key_id: key.id, provider: provider.id, status: 'success' }, models };
    } catch (err) {
      const { body, unexpected } = toErrorResponse(err);
      this.logger.warn(
        {
          event_id: body.event_id,
          provider: provider.id,
          key_id: key.id,
          code: body.error.code,
          ...(unexpected ? { err: err instanceof Error ? err.message : String(err) } : {}),
        },
        'listing models failed on a key',
      );
      return {
        status: { key_id: key.id, provider: provider.id, status: 'list_models_failed', error: body },
        models: [],
      };
    }
  }

  private async fetchModels(provider: ConfiguredProvider, key: ConfiguredKey): Promise<ListedModel[]> {
    if (key.unusable !== undefined) {
      throw new GatewayException(502, 'secret_unresolved', `Key ${key.name} cannot be used: ${key.unusable}`, {
        reason: 'gateway_internal',
      });
    }
    const adapter = adapterFor(provider.id);
    if (!adapter) {
      throw new GatewayException(400, 'unsupported_operation', `Listing models of ${provider.id} is not supported yet`);
    }
    const target = providerTarget(provider.id, provider, adapter, key.credentials, '');
    // Azure has no base: each key carries its endpoint.
    if (!target.baseUrl && provider.id !== 'azure') {
      throw GatewayException.validation('base_url', `base_url is required for ${provider.id} (it has no default)`);
    }
    let call = adapter.buildListModels(target);
    if (adapter.authorize) call = await adapter.authorize(call, target, this.io);
    const response = await this.outbound.request(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      timeoutMs: provider.network.timeoutMs,
      maxBytes: MAX_LIST_BYTES,
    });
    const text = (await readBodyCapped(response.body, MAX_LIST_BYTES, provider.id)).toString('utf8');
    if (response.status >= 400) throw providerException(adapter.parseError(response.status, response.headers, text));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!json || typeof json !== 'object') {
      throw new GatewayException(502, 'upstream_error', `${provider.id} answered the model list with invalid JSON`, {
        reason: 'provider_server_error',
      });
    }
    // ElevenLabs answers a bare array: the adapter gets it as a unary array answer is handed over.
    if (Array.isArray(json)) json = { [TOP_LEVEL_ARRAY]: json };
    return adapter.parseListModels(json as Record<string, unknown>);
  }
}
