import type { ProviderId } from '../providers/provider-ids.js';
import type { KeyAlias } from '../catalog/provider-snapshot.js';
import { definedMembers } from '../providers/shared/wire-json.js';

/** The contract's routing info of one request (gateway-api.md "Routing info"). */
export interface RoutingInfo {
  provider?: ProviderId;
  model?: string;
  key?: string;
  resolved_key_alias?: KeyAlias;
  is_fallback?: true;
  primary_provider?: ProviderId;
  primary_model?: string;
  requested_provider?: ProviderId;
  requested_model?: string;
  server_side_fallback_model?: string;
  /** The routing rule that chose the provider and model (the last one of a chain), when one matched. */
  routing_rule_id?: string;
  routing_rule_name?: string;
}

const HEADER_PREFIX = 'x-gateway-routing-info-';

/**
 * A copy of the routing info as it stands, without members left undefined. The router keeps one info per request and
 * overwrites its members between attempts (never deletes them: a deleted member makes a slow dictionary object of
 * it); what leaves the router is this copy.
 */
export function routingSnapshot(info: RoutingInfo): RoutingInfo {
  return definedMembers(info) ?? {};
}

/**
 * The `x-gateway-routing-info-*` headers (decisions.md): kebab-case names, `is-fallback` only as `true`, empty values
 * never sent.
 */
export function routingHeaders(info: RoutingInfo): Record<string, string> {
  const headers: Record<string, string> = {};
  const put = (name: string, value: string | undefined) => {
    if (value) headers[HEADER_PREFIX + name] = value;
  };
  put('provider', info.provider);
  put('model', info.model);
  put('key', info.key);
  put('alias-model-id', info.resolved_key_alias?.model_id);
  put('alias-model-name', info.resolved_key_alias?.model_name);
  put('alias-model-family', info.resolved_key_alias?.model_family);
  if (info.is_fallback) put('is-fallback', 'true');
  put('primary-provider', info.primary_provider);
  put('primary-model', info.primary_model);
  put('requested-provider', info.requested_provider);
  put('requested-model', info.requested_model);
  put('server-side-fallback-model', info.server_side_fallback_model);
  put('routing-rule-id', info.routing_rule_id);
  put('routing-rule-name', info.routing_rule_name);
  return headers;
}

/**
 * The error `extra_fields` that describe routing: `routing_info` and its deprecated mirrors, filled as the contract
 * says (`original_model_requested` is the primary model after a fallback, else the model; `resolved_model_used` the
 * alias target when one matched, else the model).
 */
export function routingErrorFields(info: RoutingInfo): Record<string, unknown> {
  const fields: Record<string, unknown> = { routing_info: info };
  if (info.provider) fields.provider = info.provider;
  const original = info.is_fallback ? info.primary_model : info.model;
  if (original) fields.original_model_requested = original;
  const resolved = info.resolved_key_alias?.model_id ?? info.model;
  if (resolved) fields.resolved_model_used = resolved;
  return fields;
}
