import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { CacheFactory } from '../../../core/cache/cache.factory.js';
import type { InvalidatedCache } from '../../../core/cache/invalidated-cache.js';
import { ConfigChanges } from '../../../core/config/config-changes.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { InvalidationBus } from '../../../core/redis/invalidation.bus.js';
import type { StoredSecret } from '../../../core/secrets/secret-value.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';
import type { KeyCredentials } from '../providers/shared/provider-adapter.js';
import type { KeyRecord, ProviderRecord } from './catalog-records.js';
import { CatalogStore } from './catalog-store.js';
import { effectiveNetworkConfig, toNetworkSettings } from './network-config.js';
import type { ConfiguredKey, ConfiguredProvider, NetworkSettings, ProviderSnapshot } from './provider-snapshot.js';

/** Invalidation topic of every provider and key change (one message clears the snapshot on every replica). */
export const PROVIDERS_TOPIC = 'inference.providers';
const SNAPSHOT_KEY = 'snapshot';

/** An immutable view of every configured provider, built once per change. */
class CatalogSnapshot implements ProviderSnapshot {
  private readonly byId: ReadonlyMap<ProviderId, ConfiguredProvider>;

  constructor(
    private readonly providers: readonly ConfiguredProvider[],
    readonly defaultNetwork: NetworkSettings,
  ) {
    this.byId = new Map(providers.map((p) => [p.id, p]));
  }

  get(id: ProviderId): ConfiguredProvider | undefined {
    return this.byId.get(id);
  }

  all(): readonly ConfiguredProvider[] {
    return this.providers;
  }
}

/** A resolved secret, or why it could not be resolved (never the secret itself). */
type Resolved = { value: string } | { problem: string };

/**
 * What the request path knows about providers and keys: an in-memory snapshot built from the stored providers and
 * those of the config file, secrets resolved. `snapshot()` answers synchronously while the snapshot is built; every
 * committed change (`invalidate()`) drops it here and, through the invalidation bus, on every replica, and the next
 * call rebuilds it (once, however many requests wait). After 60 s without a change it is rebuilt in the background
 * (the safety net should a message be lost; it also picks up rotated `env.` and `vault.` secrets) while requests
 * keep being answered from the previous one: only a change makes a request wait.
 */
@Injectable()
export class ProviderCatalog implements OnApplicationBootstrap {
  private readonly cache: InvalidatedCache<ProviderSnapshot>;
  /** The last snapshot built, until the next change: served while an expired one is rebuilt. */
  private previous: ProviderSnapshot | undefined;
  /** Bumped on every change (here or on another replica), so a build that overlapped one is not kept. */
  private changes = 0;
  /** The background rebuild whose failure is already being logged. */
  private refreshing: Promise<ProviderSnapshot> | undefined;

  constructor(
    private readonly store: CatalogStore,
    private readonly secrets: SecretsService,
    @Inject(LOGGER) private readonly logger: Logger,
    caches: CacheFactory,
    bus: InvalidationBus,
    private readonly config: GatewayConfig,
    changes: ConfigChanges,
  ) {
    this.cache = caches.create<ProviderSnapshot>({
      topic: PROVIDERS_TOPIC,
      ttlMs: 60_000,
      negativeTtlMs: 0,
      maxEntries: 1,
    });
    // The cache forgets on a change and on expiry alike; this tells the two apart.
    bus.subscribe(PROVIDERS_TOPIC, () => {
      this.changes++;
      this.previous = undefined;
    });
    // The snapshot holds each provider's network settings over `inference.network_defaults`: a change of those (applied
    // on every replica by its own reload) rebuilds it here, like a provider change.
    changes.subscribe((keys) => {
      if (!keys.some((k) => k.startsWith('inference.network_defaults.'))) return;
      this.changes++;
      this.previous = undefined;
      this.cache.forgetLocally();
    });
  }

  /** The current snapshot: synchronous when built (or merely expired), else the shared rebuild after a change. */
  snapshot(): ProviderSnapshot | Promise<ProviderSnapshot> {
    const built = this.cache.get(SNAPSHOT_KEY);
    if (built) return built;
    const rebuild = this.cache.getOrLoad(SNAPSHOT_KEY, () => this.build()) as Promise<ProviderSnapshot>;
    if (!this.previous) return rebuild;
    if (this.refreshing !== rebuild) {
      this.refreshing = rebuild;
      rebuild.catch((err: unknown) =>
        this.logger.warn({ err: (err as Error).message }, 'provider snapshot refresh failed; serving the previous one'),
      );
    }
    return this.previous;
  }

  /** After a committed change: drops the snapshot here (synchronously) and on every other replica. */
  invalidate(): Promise<void> {
    return this.cache.invalidate();
  }

  /** Builds the first snapshot before traffic arrives, so the first request does not wait for it. */
  onApplicationBootstrap(): void {
    void Promise.resolve(this.snapshot()).catch((err: unknown) =>
      this.logger.warn({ err: (err as Error).message }, 'provider snapshot could not be built at start'),
    );
  }

  private async build(): Promise<ProviderSnapshot> {
    const changes = this.changes;
    const { providers, keys } = await this.store.everything();
    const byProvider = new Map<ProviderId, KeyRecord[]>();
    for (const key of keys) byProvider.set(key.provider, [...(byProvider.get(key.provider) ?? []), key]);
    const configured = await Promise.all(providers.map((p) => this.configure(p, byProvider.get(p.provider) ?? [])));
    const defaults = Object.freeze(toNetworkSettings(this.config.inference.network_defaults));
    const snapshot = new CatalogSnapshot(Object.freeze(configured), defaults);
    if (changes === this.changes) this.previous = snapshot;
    return snapshot;
  }

  private async configure(record: ProviderRecord, keys: KeyRecord[]): Promise<ConfiguredProvider> {
    const headers: Record<string, string> = {};
    let headerProblem: string | undefined;
    for (const [name, stored] of Object.entries(record.extra_headers)) {
      const resolved = await this.resolve(stored);
      if ('value' in resolved) headers[name] = resolved.value;
      else headerProblem ??= `extra_headers.${name}: ${resolved.problem}`;
    }
    const configuredKeys = await Promise.all(keys.map((k) => this.configureKey(k, headerProblem)));
    return Object.freeze({
      id: record.provider,
      ...(record.base_url ? { base_url: record.base_url } : {}),
      extra_headers: Object.freeze(headers),
      network: Object.freeze(
        toNetworkSettings(effectiveNetworkConfig(record.network_config, this.config.inference.network_defaults)),
      ),
      source: record.source,
      keys: Object.freeze(configuredKeys),
    });
  }

  /** A key whose secrets (or whose provider's headers) cannot be resolved is kept, marked unusable. */
  private async configureKey(key: KeyRecord, headerProblem: string | undefined): Promise<ConfiguredKey> {
    const value: Resolved = key.value ? await this.resolve(key.value) : { value: '' };
    const credentials: KeyCredentials = { id: key.id, name: key.name, value: 'value' in value ? value.value : '' };
    const azure = key.azure_key_config;
    if (azure) {
      credentials.azure = {
        endpoint: azure.endpoint,
        ...(azure.api_version === undefined ? {} : { api_version: azure.api_version }),
        deployments: { ...azure.deployments },
      };
    }
    let problem = 'problem' in value ? `value: ${value.problem}` : undefined;
    const bedrock = key.bedrock_key_config;
    if (bedrock) {
      const settings: NonNullable<KeyCredentials['bedrock']> = { region: bedrock.region };
      for (const [field, stored, name] of [
        ['accessKeyId', bedrock.access_key, 'access_key'],
        ['secretAccessKey', bedrock.secret_key, 'secret_key'],
        ['sessionToken', bedrock.session_token, 'session_token'],
      ] as const) {
        if (!stored) continue;
        const resolved = await this.resolve(stored);
        if ('value' in resolved) settings[field] = resolved.value;
        else problem ??= `bedrock_key_config.${name}: ${resolved.problem}`;
      }
      credentials.bedrock = settings;
    }
    const vertex = key.vertex_key_config;
    if (vertex) {
      const resolved = await this.resolve(vertex.auth_credentials);
      if ('problem' in resolved) problem ??= `vertex_key_config.auth_credentials: ${resolved.problem}`;
      credentials.vertex = {
        projectId: vertex.project_id,
        region: vertex.region,
        serviceAccountJson: 'value' in resolved ? resolved.value : '',
      };
    }
    const unusable = problem ?? headerProblem;
    return Object.freeze({
      id: key.id,
      name: key.name,
      weight: key.weight,
      models: Object.freeze([...key.models]),
      blacklisted_models: Object.freeze([...key.blacklisted_models]),
      aliases: Object.freeze({ ...key.aliases }),
      enabled: key.enabled,
      credentials: Object.freeze(credentials),
      ...(unusable === undefined ? {} : { unusable }),
    });
  }

  private async resolve(stored: StoredSecret): Promise<Resolved> {
    try {
      return { value: await this.secrets.resolve(stored) };
    } catch (err) {
      // SecretsService logs the failure and its message names the reference, never a value.
      return { problem: err instanceof Error ? err.message : 'could not be resolved' };
    }
  }
}
