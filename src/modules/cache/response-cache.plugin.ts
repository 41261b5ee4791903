import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import type {
  GatewayPlugin,
  PluginAnswer,
  PluginJson,
  PluginRequest,
  PluginResponse,
  PluginStreamEnd,
  PreRequestOutcome,
} from '../plugins/index.js';
import { parseCacheConfig, type CacheSettings } from './cache-config.js';
import { CACHE_KEY_HEADER, CACHE_STATUS_HEADER, CACHE_TYPE_HEADER, cacheDirectivesOf } from './cache-headers.js';
import { CACHEABLE_KINDS, cacheKeyOf, scopeOf } from './cache-key.js';
import { Embedder } from './semantic/embedder.js';
import { SEMANTIC_KINDS, semanticTextOf } from './semantic/request-text.js';
import { SemanticIndex, type SemanticScope } from './semantic/semantic-index.js';
import { ResponseCacheStore } from './store/response-cache.store.js';

/** An answer as stored: what the plugin answers with on a hit, without the per-hit headers. */
export type CachedAnswer = PluginAnswer extends infer A ? (A extends PluginAnswer ? Omit<A, 'headers'> : never) : never;

/** The JSON text of an entry. */
export interface CachedEntry {
  request_id: string;
  created_at: string;
  answer: CachedAnswer;
}

/** What `onRequest` leaves for the post hooks of the same request (the plugin's per-request state). */
interface PendingWrite {
  key: string;
  ttlMs: number;
  settings: CacheSettings;
  /** Set when the semantic cache embedded the request: the vector is stored beside the answer. */
  semantic?: { where: SemanticScope; vector: number[] };
}

const PENDING = 'write';

/**
 * The response cache (docs/cache.md) as the `cache` plugin: before the provider call it looks the request up by its
 * exact key (then, when `semantic` is on, by the nearest embedding) and answers a hit itself, priced at zero by the
 * pipeline; after a successful answer or a complete stream it stores it. Every cacheable answer says what happened in
 * `x-gateway-cache-status`, `x-gateway-cache-key` and, on hits, `x-gateway-cache-type`.
 */
@Injectable()
export class ResponseCachePlugin implements GatewayPlugin {
  readonly name = 'cache';
  readonly recordsStream = true;
  readonly defaults = { enabled: false, order: 20, config: {} };
  /** Parsed configs by object: the registry hands every request the same object until the config changes. */
  private readonly parsed = new WeakMap<PluginJson, CacheSettings>();

  constructor(
    private readonly store: ResponseCacheStore,
    private readonly semanticIndex: SemanticIndex,
    private readonly embedder: Embedder,
  ) {}

  validateConfig(config: PluginJson): GatewayException | undefined {
    parseCacheConfig(config, this.semanticIndex.available);
    return undefined;
  }

  async onRequest(request: PluginRequest): Promise<PreRequestOutcome | undefined> {
    if (!CACHEABLE_KINDS.has(request.kind)) return undefined;
    const directives = cacheDirectivesOf(request.headers);
    if (directives.skip) return { headers: { [CACHE_STATUS_HEADER]: 'bypass' } };
    const settings = this.settingsOf(request.config);
    const scope = scopeOf(settings.scope, request.virtualKeyId);
    const key = cacheKeyOf(request.kind, request.stream, scope, request.body);
    const pending: PendingWrite = { key, ttlMs: directives.ttlMs ?? settings.ttlMs, settings };
    request.state.set(PENDING, pending);
    if (directives.force) return { headers: { [CACHE_STATUS_HEADER]: 'bypass', [CACHE_KEY_HEADER]: key } };

    const exact = await this.read(key);
    if (exact) {
      this.store.count('hit');
      request.log('debug', `exact hit ${key}`);
      return { answer: withHeaders(exact.answer, key, 'direct') };
    }
    if (
      settings.semantic &&
      settings.embeddingModel &&
      this.semanticIndex.available &&
      SEMANTIC_KINDS.has(request.kind)
    ) {
      const near = await this.semanticLookup(request, settings, scope, pending);
      if (near) {
        this.store.count('hit');
        return { answer: withHeaders(near.entry.answer, near.key, 'semantic') };
      }
    }
    this.store.count('miss');
    return { headers: { [CACHE_STATUS_HEADER]: 'miss', [CACHE_KEY_HEADER]: key } };
  }

  async onResponse(request: PluginRequest, response: PluginResponse): Promise<void> {
    const pending = request.state.get(PENDING) as PendingWrite | undefined;
    if (!pending || response.fromPlugin || response.status !== 200) return;
    const answer: CachedAnswer = {
      type: 'unary',
      provider: response.provider,
      model: response.model,
      body: response.body,
      ...(response.usage ? { usage: response.usage } : {}),
    };
    await this.write(request, pending, answer);
  }

  async onStreamEnd(request: PluginRequest, end: PluginStreamEnd): Promise<void> {
    const pending = request.state.get(PENDING) as PendingWrite | undefined;
    if (!pending || end.fromPlugin || end.failed || end.status !== 200 || !end.groups) return;
    const answer: CachedAnswer = {
      type: 'stream',
      provider: end.provider,
      model: end.model,
      groups: end.groups,
      ...(end.usage ? { usage: end.usage } : {}),
    };
    await this.write(request, pending, answer);
  }

  private settingsOf(config: PluginJson): CacheSettings {
    let settings = this.parsed.get(config);
    if (!settings) {
      settings = parseCacheConfig(config, this.semanticIndex.available);
      this.parsed.set(config, settings);
    }
    return settings;
  }

  private async read(key: string): Promise<CachedEntry | undefined> {
    const text = await this.store.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as CachedEntry);
  }

  /** Embeds the request and looks for a stored answer near enough; keeps the vector for the write after a miss. */
  private async semanticLookup(
    request: PluginRequest,
    settings: CacheSettings,
    scope: string,
    pending: PendingWrite,
  ): Promise<{ key: string; entry: CachedEntry } | undefined> {
    const text = semanticTextOf(request.kind, request.body);
    const model = request.body.model;
    if (text === '' || typeof model !== 'string') return undefined;
    const vector = await this.embedder.embed(settings.embeddingModel!, text, request.virtualKeyId, request.requestId);
    if (vector instanceof Error) {
      request.log('warn', `semantic lookup skipped: ${vector.message}`);
      return undefined;
    }
    const where: SemanticScope = { scope, kind: request.kind, model, stream: request.stream };
    pending.semantic = { where, vector };
    const nearest = await this.semanticIndex.nearest(where, vector);
    if (!nearest || nearest.similarity < settings.threshold) {
      if (nearest) request.log('debug', `semantic miss: nearest similarity ${nearest.similarity.toFixed(4)}`);
      return undefined;
    }
    const entry = await this.read(nearest.key);
    if (!entry) return undefined;
    request.log('debug', `semantic hit ${nearest.key} (similarity ${nearest.similarity.toFixed(4)})`);
    return { key: nearest.key, entry };
  }

  private async write(request: PluginRequest, pending: PendingWrite, answer: CachedAnswer): Promise<void> {
    const entry: CachedEntry = { request_id: request.requestId, created_at: new Date().toISOString(), answer };
    await this.store.put(
      { key: pending.key, requestId: request.requestId, value: JSON.stringify(entry), ttlMs: pending.ttlMs },
      pending.settings.maxEntries,
    );
    const semantic = pending.semantic;
    if (semantic) await this.semanticIndex.put(pending.key, semantic.where, semantic.vector, pending.ttlMs);
  }
}

function withHeaders(answer: CachedAnswer, key: string, type: 'direct' | 'semantic'): PluginAnswer {
  return {
    ...answer,
    headers: { [CACHE_STATUS_HEADER]: 'hit', [CACHE_TYPE_HEADER]: type, [CACHE_KEY_HEADER]: key },
  };
}
