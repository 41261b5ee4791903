import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { ProviderId } from '../providers/provider-ids.js';
import type {
  ConfiguredKey,
  ConfiguredProvider,
  NetworkSettings,
  ProviderSnapshot,
} from '../catalog/provider-snapshot.js';
import { MEDIA_KINDS } from '../media/media-kinds.js';
import { adapterFor } from '../providers/registry.js';
import type { InferenceKind, Json, ProviderAdapter } from '../providers/shared/provider-adapter.js';
import { responsesToChatRequest } from '../translation/responses-bridge.js';
import { REQUEST_TYPES, type InferenceCall } from './inference-call.js';
import { eligibleKeys, keyAllows, resolveAlias } from './key-selector.js';
import type { ModelRef } from '../providers/shared/model-ref.js';

/** A model of the request's chain, resolved to its provider, adapter and usable keys. */
export interface ResolvedModel {
  ref: ModelRef;
  provider: ProviderId;
  config?: ConfiguredProvider;
  adapter: ProviderAdapter;
  upstreamKind: InferenceKind;
  bridged: boolean;
  keys: ConfiguredKey[];
  network: NetworkSettings;
  /** The body to translate: the caller's, or its chat form when a Responses request is bridged. */
  source: Json;
}

export function resolveModel(
  call: InferenceCall,
  ref: ModelRef,
  snapshot: ProviderSnapshot,
  isPrimary: boolean,
): ResolvedModel {
  const param = isPrimary ? 'model' : 'fallbacks';
  let provider = ref.provider;
  if (!provider) {
    const candidates = bareCandidates(ref.model, snapshot);
    const chosen = candidates[Math.floor(Math.random() * candidates.length)];
    if (!chosen) {
      throw new GatewayException(
        400,
        'model_unknown',
        `Model '${ref.requested}' names no provider: send <provider>/<model>, or a model a configured key lists`,
        { param, reason: 'caller_model_unknown' },
      );
    }
    provider = chosen.id;
  }
  const adapter = adapterFor(provider);
  if (!adapter) {
    throw new GatewayException(400, 'unsupported_operation', `Provider '${provider}' is not supported on /v1 yet`, {
      param,
      reason: 'caller_model_not_available',
    });
  }
  // A provider without `responses` serves a Responses request through chat.
  const servedAs = call.kind === 'responses' && !adapter.kinds.has('responses') ? 'chat' : call.kind;
  if (!adapter.kinds.has(servedAs)) {
    throw new GatewayException(
      400,
      'unsupported_operation',
      `Provider '${provider}' does not serve ${REQUEST_TYPES[call.kind]} requests`,
      { param, reason: 'caller_invalid_request' },
    );
  }
  if (call.stream && MEDIA_KINDS.has(call.kind) && !adapter.mediaStreams?.has(call.kind)) {
    throw GatewayException.validation(
      'stream_format',
      `Provider '${provider}' does not stream ${REQUEST_TYPES[call.kind]} answers: leave stream_format unset or audio`,
    );
  }
  const config = snapshot.get(provider);
  const keys = keysFor(call, ref, provider, config, isPrimary ? 'model' : 'fallbacks', isPrimary);
  const bridged = call.kind === 'responses' && adapter.kinds.has('chat') && bridgesResponses(adapter, ref, keys);
  const upstreamKind: InferenceKind = bridged ? 'chat' : call.kind;
  // A direct key to a provider not configured: `inference.network_defaults`.
  const network = config?.network ?? snapshot.defaultNetwork;
  return { ref, provider, config, adapter, upstreamKind, bridged, keys, network, source: sourceOf(call, bridged) };
}

/** The keys an attempt may use: the caller's own key passed through, or the provider's eligible stored keys. */
function keysFor(
  call: InferenceCall,
  ref: ModelRef,
  provider: ProviderId,
  config: ConfiguredProvider | undefined,
  param: string,
  isPrimary: boolean,
): ConfiguredKey[] {
  if (call.directKey !== undefined) return [directKey(call.directKey)];
  if (!config) {
    throw new GatewayException(400, 'model_not_available', `Provider '${provider}' is not configured`, {
      param,
      reason: 'caller_model_not_available',
    });
  }
  // A pin names a key of the primary's provider; a fallback to another provider ignores it unless it has that key.
  const pin =
    isPrimary || config.keys.some((k) => k.id === call.pin?.id || k.name === call.pin?.name) ? call.pin : undefined;
  const keys = eligibleKeys(config, ref.model, pin);
  if (keys.length > 0) return keys;
  const broken = config.keys.find((k) => k.enabled && k.unusable && keyAllows(k, ref.model));
  if (broken) {
    // Configured for the model, but its secret cannot be read (env var unset, Vault down): the gateway's fault.
    const why = `Key ${broken.name} of ${provider} cannot be used: ${broken.unusable}`;
    throw new GatewayException(502, 'secret_unresolved', why, { reason: 'gateway_internal' });
  }
  const pinned = pin?.id ?? pin?.name;
  throw new GatewayException(
    400,
    'model_not_available',
    pinned
      ? `The pinned key '${pinned}' of ${provider} does not exist, is disabled or does not allow '${ref.model}'`
      : `No enabled key of ${provider} allows model '${ref.model}'`,
    {
      param: pinned ? (pin?.id ? 'x-gateway-api-key-id' : 'x-gateway-api-key') : param,
      reason: 'caller_model_not_available',
    },
  );
}

/**
 * Providers that can serve a bare model: a supported provider with an enabled key that names the model (or an alias
 * of it). A key allowing every model (`["*"]`) does not claim a bare name, or every bare name would be ambiguous.
 */
export function bareCandidates(model: string, snapshot: ProviderSnapshot): ConfiguredProvider[] {
  return snapshot
    .all()
    .filter(
      (p) =>
        adapterFor(p.id) &&
        p.keys.some(
          (k) => k.enabled && !k.unusable && keyAllows(k, model) && (k.models.includes(model) || !!k.aliases[model]),
        ),
    );
}

/** The caller's own provider key (`inference.allow_direct_keys`), as a one-off key named `direct`. */
function directKey(value: string): ConfiguredKey {
  return {
    id: 'direct',
    name: 'direct',
    weight: 1,
    models: ['*'],
    blacklisted_models: [],
    aliases: {},
    enabled: true,
    credentials: { id: 'direct', name: 'direct', value },
  };
}

/**
 * Whether a Responses request goes upstream as chat: always for an adapter without `responses`; for one serving it
 * per model, when the model each key sends (after its alias) is served through chat.
 */
function bridgesResponses(adapter: ProviderAdapter, ref: ModelRef, keys: readonly ConfiguredKey[]): boolean {
  if (!adapter.kinds.has('responses')) return true;
  const viaChat = adapter.bridgesResponses?.bind(adapter);
  return !!viaChat && keys.every((key) => viaChat(resolveAlias(key, ref.model).upstreamModel));
}

function sourceOf(call: InferenceCall, bridged: boolean): Json {
  return bridged ? responsesToChatRequest(call.body) : call.body;
}
