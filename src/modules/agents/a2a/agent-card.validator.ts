import { httpUrlProblem } from '../../../core/validation/is-http-url.decorator.js';

/** The bindings the gateway proxies. */
export const PROXIED_BINDINGS = ['JSONRPC', 'HTTP+JSON'] as const;
export type ProxiedBinding = (typeof PROXIED_BINDINGS)[number];

export interface UpstreamInterface {
  url: string;
  protocolBinding: ProxiedBinding;
  protocolVersion: '1.0';
  tenant?: string;
}

export type SecuritySchemeKind = 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS';

export interface CardSecurityScheme {
  name: string;
  type: SecuritySchemeKind;
}

export interface CardExtension {
  uri: string;
  required: boolean;
  description?: string;
}

/** What the gateway needs from a valid A2A v1 card, next to the card itself. */
export interface ValidatedCard {
  card: Record<string, unknown>;
  /** Eligible interfaces (1.0, a proxied binding, absolute http(s) URL), in the card's preference order. */
  interfaces: UpstreamInterface[];
  securitySchemes: CardSecurityScheme[];
  /** OR across entries, AND within one: scheme names. */
  securityRequirements: string[][];
  extensions: CardExtension[];
  /** The upstream's `Cache-Control` for the card, when it sent one. */
  cacheControl?: string;
}

/** A card that is not a usable A2A v1 card; the message says what is wrong. */
export class AgentCardInvalidError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentCardInvalidError';
  }
}

const fail = (message: string): never => {
  throw new AgentCardInvalidError(message);
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

// The three JSON shapes seen in the wild for one security scheme (protocols.md §1 "Validating a card", step 4).
const WRAPPER_KINDS: Record<string, SecuritySchemeKind> = {
  apiKeySecurityScheme: 'apiKey',
  httpAuthSecurityScheme: 'http',
  oauth2SecurityScheme: 'oauth2',
  openIdConnectSecurityScheme: 'openIdConnect',
  mtlsSecurityScheme: 'mutualTLS',
};
const OPENAPI_KINDS: Record<string, SecuritySchemeKind> = {
  apiKey: 'apiKey',
  http: 'http',
  oauth2: 'oauth2',
  openIdConnect: 'openIdConnect',
  mutualTLS: 'mutualTLS',
};

function schemeKind(name: string, scheme: unknown): SecuritySchemeKind {
  if (!isObject(scheme)) return fail(`securitySchemes.${name} must be an object`);
  // Spec (ProtoJSON) shape: exactly one wrapper key.
  const wrappers = Object.keys(scheme).filter((k) => k in WRAPPER_KINDS);
  if (wrappers.length === 1) return WRAPPER_KINDS[wrappers[0] as string] as SecuritySchemeKind;
  if (wrappers.length > 1) return fail(`securitySchemes.${name} must hold exactly one scheme`);
  // OpenAPI `type` shape (a2a-java, 0.3 habits).
  if (typeof scheme.type === 'string' && scheme.type in OPENAPI_KINDS) {
    return OPENAPI_KINDS[scheme.type] as SecuritySchemeKind;
  }
  // @a2a-js/sdk 1.3's leaked ts-proto oneof: { scheme: { $case, value } }.
  const leaked = scheme.scheme;
  if (isObject(leaked) && typeof leaked.$case === 'string' && leaked.$case in WRAPPER_KINDS) {
    return WRAPPER_KINDS[leaked.$case] as SecuritySchemeKind;
  }
  return fail(`securitySchemes.${name} is not a known security scheme shape`);
}

function requirementNames(entry: unknown, index: number): string[] {
  if (!isObject(entry)) return fail(`securityRequirements[${index}] must be an object`);
  // Spec shape { schemes: { name: { list: [...] } } }; OpenAPI shape { name: [scopes] }.
  const schemes = isObject(entry.schemes) ? entry.schemes : entry;
  return Object.keys(schemes);
}

function stringArray(card: Record<string, unknown>, field: string, nonEmpty: boolean): void {
  const value = card[field];
  if (value === undefined) fail(`missing required field ${field}`);
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) fail(`${field} must be an array of strings`);
  if (nonEmpty && (value as unknown[]).length === 0) fail(`${field} must not be empty`);
}

function requiredString(obj: Record<string, unknown>, field: string, path: string): void {
  if (obj[field] === undefined) fail(`missing required field ${path}`);
  if (typeof obj[field] !== 'string') fail(`${path} must be a string`);
}

function looksLikeV03(card: Record<string, unknown>): boolean {
  return (
    card.supportedInterfaces === undefined &&
    (typeof card.url === 'string' ||
      typeof card.protocolVersion === 'string' ||
      card.preferredTransport !== undefined ||
      card.additionalInterfaces !== undefined)
  );
}

/**
 * Checks a fetched card against A2A v1 (required fields and their types, at least one proxyable 1.0 interface)
 * and extracts interfaces, security schemes and requirements, and extensions. Unknown fields are ignored.
 */
export function validateAgentCard(json: unknown): ValidatedCard {
  if (!isObject(json)) return fail('the card is not a JSON object');
  const card = json;
  if (looksLikeV03(card)) {
    const version = typeof card.protocolVersion === 'string' ? ` (protocolVersion ${card.protocolVersion})` : '';
    fail(
      `the card is an A2A 0.3 card${version}: it has a top-level url and no supportedInterfaces; only A2A v1 agents can be registered`,
    );
  }
  requiredString(card, 'name', 'name');
  if ((card.name as string).length === 0) fail('name must not be empty');
  requiredString(card, 'description', 'description');
  requiredString(card, 'version', 'version');
  if (card.capabilities === undefined) fail('missing required field capabilities');
  if (!isObject(card.capabilities)) fail('capabilities must be an object');
  stringArray(card, 'defaultInputModes', true);
  stringArray(card, 'defaultOutputModes', true);

  if (card.skills === undefined) fail('missing required field skills');
  if (!Array.isArray(card.skills)) fail('skills must be an array');
  // A2A v1 §5.7: a required repeated field needs at least one element.
  if ((card.skills as unknown[]).length === 0) fail('skills must not be empty');
  (card.skills as unknown[]).forEach((skill, i) => {
    if (!isObject(skill)) fail(`skills[${i}] must be an object`);
    const s = skill as Record<string, unknown>;
    for (const f of ['id', 'name', 'description']) requiredString(s, f, `skills[${i}].${f}`);
    if (s.tags === undefined) fail(`missing required field skills[${i}].tags`);
    if (!Array.isArray(s.tags) || s.tags.some((t) => typeof t !== 'string')) {
      fail(`skills[${i}].tags must be an array of strings`);
    }
    if ((s.tags as unknown[]).length === 0) fail(`skills[${i}].tags must not be empty`);
  });

  if (card.supportedInterfaces === undefined) fail('missing required field supportedInterfaces');
  if (!Array.isArray(card.supportedInterfaces)) fail('supportedInterfaces must be an array');
  const interfaces: UpstreamInterface[] = [];
  (card.supportedInterfaces as unknown[]).forEach((entry, i) => {
    if (!isObject(entry)) fail(`supportedInterfaces[${i}] must be an object`);
    const e = entry as Record<string, unknown>;
    if (e.protocolVersion !== '1.0') return;
    if (!PROXIED_BINDINGS.includes(e.protocolBinding as ProxiedBinding)) return;
    if (httpUrlProblem(e.url) !== undefined) return;
    interfaces.push({
      url: e.url as string,
      protocolBinding: e.protocolBinding as ProxiedBinding,
      protocolVersion: '1.0',
      ...(typeof e.tenant === 'string' && e.tenant ? { tenant: e.tenant } : {}),
    });
  });
  if (interfaces.length === 0) {
    fail(
      'no supportedInterfaces entry with protocolVersion "1.0", protocolBinding JSONRPC or HTTP+JSON and an absolute http(s) url without user info',
    );
  }

  const securitySchemes: CardSecurityScheme[] = [];
  if (card.securitySchemes !== undefined) {
    if (!isObject(card.securitySchemes)) fail('securitySchemes must be an object');
    for (const [name, scheme] of Object.entries(card.securitySchemes as Record<string, unknown>)) {
      securitySchemes.push({ name, type: schemeKind(name, scheme) });
    }
  }
  const rawRequirements = card.securityRequirements ?? card.security;
  const securityRequirements: string[][] = [];
  if (rawRequirements !== undefined) {
    if (!Array.isArray(rawRequirements)) fail('securityRequirements must be an array');
    (rawRequirements as unknown[]).forEach((entry, i) => securityRequirements.push(requirementNames(entry, i)));
  }

  const extensions: CardExtension[] = [];
  const rawExtensions = (card.capabilities as Record<string, unknown>).extensions;
  if (rawExtensions !== undefined) {
    if (!Array.isArray(rawExtensions)) fail('capabilities.extensions must be an array');
    (rawExtensions as unknown[]).forEach((ext, i) => {
      if (!isObject(ext) || typeof ext.uri !== 'string' || !ext.uri) {
        fail(`capabilities.extensions[${i}] must be an object with a uri`);
      }
      const e = ext as Record<string, unknown>;
      extensions.push({
        uri: e.uri as string,
        required: e.required === true,
        ...(typeof e.description === 'string' && e.description ? { description: e.description } : {}),
      });
    });
  }

  return { card, interfaces, securitySchemes, securityRequirements, extensions };
}

/**
 * Why `names` (configured `security_schemes`) do not fit the card, or undefined when they do: each must be a
 * declared scheme and together they must cover every scheme of at least one requirement entry.
 */
export function securitySchemesProblem(names: string[], card: ValidatedCard): string | undefined {
  const declared = new Set(card.securitySchemes.map((s) => s.name));
  for (const name of names) {
    if (!declared.has(name)) return `security scheme "${name}" is not declared in the card's securitySchemes`;
  }
  if (card.securityRequirements.length === 0) return undefined;
  const chosen = new Set(names);
  if (card.securityRequirements.some((req) => req.every((n) => chosen.has(n)))) return undefined;
  const options = card.securityRequirements.map((r) => `[${r.join(', ')}]`).join(' or ');
  return `security_schemes must together satisfy one of the card's securityRequirements: ${options}`;
}
