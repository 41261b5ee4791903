import { createHash } from 'node:crypto';
/** The security scheme the served card declares: callers authenticate to the gateway with a virtual key. */
export const GATEWAY_SCHEME_NAME = 'gatewayVirtualKey';

export interface CardRewriteInput {
  /** The upstream card (spec-shaped JSON). */
  card: Record<string, unknown>;
  /** `{base}/agents/a2a/{name}` */
  agentBaseUrl: string;
  hasJsonRpc: boolean;
  hasRest: boolean;
  /** The registration's extension_uris. */
  extensionUris: readonly string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The card clients see: interfaces point at the gateway (in the upstream's preference order, only bindings the
 * upstream offers), protocol 1.0, signatures dropped (they would no longer verify), extensions filtered to the
 * registered ones, push advertised only when the upstream supports it, and the upstream's security schemes replaced
 * by the gateway's virtual-key scheme (the gateway injects the upstream credentials itself).
 */
export function rewriteAgentCard(input: CardRewriteInput): Obj {
  const { card } = input;
  const out: Obj = structuredClone(card);
  delete out.signatures;
  // 0.3-era fields that would mislead 1.0 clients into calling the upstream directly.
  delete out.url;
  delete out.preferredTransport;
  delete out.additionalInterfaces;
  delete out.protocolVersion;

  const upstreamOrder = Array.isArray(card.supportedInterfaces)
    ? card.supportedInterfaces.filter(isObj).map((i) => i.protocolBinding)
    : [];
  const bindings: Array<'JSONRPC' | 'HTTP+JSON'> = [];
  for (const b of upstreamOrder) {
    if (b === 'JSONRPC' && input.hasJsonRpc && !bindings.includes('JSONRPC')) bindings.push('JSONRPC');
    if (b === 'HTTP+JSON' && input.hasRest && !bindings.includes('HTTP+JSON')) bindings.push('HTTP+JSON');
  }
  if (input.hasJsonRpc && !bindings.includes('JSONRPC')) bindings.push('JSONRPC');
  if (input.hasRest && !bindings.includes('HTTP+JSON')) bindings.push('HTTP+JSON');
  out.supportedInterfaces = bindings.map((binding) => ({
    url: `${input.agentBaseUrl}/${binding === 'JSONRPC' ? 'jsonrpc' : 'rest'}`,
    protocolBinding: binding,
    protocolVersion: '1.0',
  }));

  const caps: Obj = isObj(card.capabilities) ? structuredClone(card.capabilities) : {};
  const allowed = new Set(input.extensionUris);
  caps.extensions = Array.isArray(caps.extensions)
    ? caps.extensions.filter((e) => isObj(e) && typeof e.uri === 'string' && allowed.has(e.uri))
    : [];
  if (caps.pushNotifications === true) caps.pushNotifications = true;
  else delete caps.pushNotifications;
  out.capabilities = caps;

  out.securitySchemes = {
    [GATEWAY_SCHEME_NAME]: {
      httpAuthSecurityScheme: {
        scheme: 'Bearer',
        description: 'A gateway virtual key (Authorization: Bearer, x-api-key or x-gateway-vk)',
      },
    },
  };
  out.securityRequirements = [{ schemes: { [GATEWAY_SCHEME_NAME]: { list: [] } } }];
  if (Array.isArray(out.skills)) {
    out.skills = (out.skills as unknown[]).map((skill: unknown) => {
      if (!isObj(skill)) return skill;
      const copy = { ...skill };
      delete copy.securityRequirements;
      delete copy.security;
      return copy;
    });
  }
  return out;
}

/** How long a served card may be reused when the upstream said nothing (the gateway's own card cache lifetime). */
const DEFAULT_CARD_MAX_AGE_S = 300;

/**
 * Caching headers of a served card. The ETag is the served (rewritten) bytes' own: the upstream's would not match
 * them. The upstream's Cache-Control is kept, but always `private`: the card is served to authenticated callers only.
 */
export function servedCardCaching(body: string, upstreamCacheControl: string | undefined) {
  const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const directives = (upstreamCacheControl ?? `max-age=${DEFAULT_CARD_MAX_AGE_S}`)
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d && !/^(public|private|s-maxage=.*)$/i.test(d));
  return { etag, cacheControl: ['private', ...directives].join(', ') };
}

/** Whether an `If-None-Match` header names the ETag (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  const value = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  if (!value) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return value.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
