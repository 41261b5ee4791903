import type { Schema } from '../../api/schemas';

export type AgentView = Schema<'AgentRegistrationView'>;
export type AuthView = Schema<'AgentUpstreamAuthView'>;
export type AuthInput = Schema<'AgentUpstreamAuth'>;
export type AgentRequest = Schema<'AgentCreateRequest'>;
export type Inspection = Schema<'AgentInspection'>;
type SecretView = Schema<'SecretValue'>;

/**
 * What a person sends back for a stored secret they left untouched: the API keeps the stored value for it
 * (`<REDACTED>` on an update, docs of SecretValue). The form never holds the redacted value as text.
 */
export const KEEP_SECRET = '<REDACTED>';

/** How a secret's redacted view reads: never a value, at most where it comes from. */
export function secretSource(value: SecretView | undefined): string {
  if (!value) return 'No value';
  if (value.type === 'env' || value.type === 'vault') return `Redacted (${value.ref})`;
  return 'Redacted';
}

/** One line per part of an upstream authentication, secrets redacted: what the agent's panel shows. */
export function authLines(auth: AuthView | undefined): string[] {
  if (!auth || auth.type === 'none') return ['None'];
  const lines: string[] = [];
  if (auth.type === 'headers')
    for (const [name, value] of Object.entries(auth.headers ?? {}))
      lines.push(`Header ${name}: ${secretSource(value)}`);
  if (auth.type === 'oauth' && auth.oauth) {
    const where = auth.oauth.token_url ?? auth.oauth.discovery_url ?? auth.oauth.provider_url;
    lines.push(`OAuth client credentials${where ? ` via ${where}` : ''}`);
    lines.push(
      `Client id: ${secretSource(auth.oauth.client_id)}`,
      `Client secret: ${secretSource(auth.oauth.client_secret)}`,
    );
    if (auth.oauth.scopes?.length) lines.push(`Scopes: ${auth.oauth.scopes.join(' ')}`);
  }
  if (auth.tls?.insecure_skip_verify) lines.push('TLS: certificate not verified');
  if (auth.tls?.ca_cert_pem) lines.push(`TLS CA: ${secretSource(auth.tls.ca_cert_pem)}`);
  if (auth.tls?.client_cert_pem) lines.push(`TLS client certificate: ${secretSource(auth.tls.client_cert_pem)}`);
  if (auth.security_schemes?.length) lines.push(`Satisfies: ${auth.security_schemes.join(', ')}`);
  return lines;
}

/** The parts of an A2A card the screen shows, read defensively (the card is the upstream's JSON). */
export interface CardSummary {
  name: string;
  description: string;
  version: string;
  skills: Array<{ id: string; name: string; description: string; tags: string[] }>;
  /** The capabilities the card turns on, in words. */
  capabilities: string[];
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const CAPABILITY_WORDS: Record<string, string> = {
  streaming: 'Streaming',
  pushNotifications: 'Push notifications',
  extendedAgentCard: 'Extended card',
  stateTransitionHistory: 'State history',
};

export function cardSummary(card: Record<string, unknown>): CardSummary {
  const skills = Array.isArray(card.skills) ? (card.skills as Array<Record<string, unknown>>) : [];
  const capabilities = (typeof card.capabilities === 'object' && card.capabilities) || {};
  return {
    name: str(card.name),
    description: str(card.description),
    version: str(card.version),
    skills: skills
      .filter((skill) => typeof skill === 'object' && skill !== null)
      .map((skill) => ({
        id: str(skill.id),
        name: str(skill.name) || str(skill.id),
        description: str(skill.description),
        tags: Array.isArray(skill.tags) ? skill.tags.filter((t): t is string => typeof t === 'string') : [],
      })),
    capabilities: Object.entries(capabilities as Record<string, unknown>)
      .filter(([, on]) => on === true)
      .map(([name]) => CAPABILITY_WORDS[name] ?? name),
  };
}

/** One header of an upstream authentication as the form holds it: `stored` names a header loaded with a value. */
export interface HeaderRow extends Record<string, unknown> {
  name: string;
  value: string;
  stored: string;
  source: string;
}

/** An upstream authentication in the form: none or headers are edited; a stored OAuth setup is kept as it is. */
export interface AuthFormValues extends Record<string, unknown> {
  type: 'none' | 'headers' | 'oauth';
  headers: HeaderRow[];
}

export interface AgentFormValues extends Record<string, unknown> {
  name: string;
  agent_card_url: string;
  enabled: boolean;
  allow_by_default: boolean;
  virtual_key_ids: string[];
  runtime_auth: AuthFormValues;
  discovery_auth: AuthFormValues;
}

export const emptyHeader = (): HeaderRow => ({ name: '', value: '', stored: '', source: '' });

function authFormValues(auth: AuthView | undefined): AuthFormValues {
  if (!auth) return { type: 'none', headers: [] };
  return {
    type: auth.type,
    headers: Object.entries(auth.headers ?? {}).map(([name, value]) => ({
      name,
      value: '',
      stored: name,
      source: secretSource(value),
    })),
  };
}

export function agentFormValues(agent?: AgentView): AgentFormValues {
  return {
    name: agent?.name ?? '',
    agent_card_url: agent?.agent_card_url ?? '',
    enabled: agent?.enabled ?? true,
    allow_by_default: agent?.allow_by_default ?? false,
    virtual_key_ids: agent?.virtual_key_ids ?? [],
    runtime_auth: authFormValues(agent?.runtime_auth),
    discovery_auth: authFormValues(agent?.discovery_auth),
  };
}

/** A stored secret sent back untouched (kept by the API), or nothing when none is stored. */
const keep = (value: SecretView | undefined) => (value ? KEEP_SECRET : undefined);

/**
 * The request's authentication: typed header values sent, stored ones left empty kept (`<REDACTED>`), removed rows left
 * out; a stored OAuth setup and the stored TLS options sent back with their secrets kept. Undefined for none on a new
 * agent.
 */
export function authRequest(values: AuthFormValues, stored: AuthView | undefined): AuthInput | undefined {
  if (values.type === 'none') return stored ? { type: 'none' } : undefined;
  const request: AuthInput = { type: values.type };
  if (values.type === 'headers') {
    request.headers = Object.fromEntries(
      values.headers
        .filter((row) => row.name.trim() !== '')
        .map((row) => [row.name.trim(), row.value !== '' ? row.value : row.stored ? KEEP_SECRET : '']),
    );
  }
  if (values.type === 'oauth' && stored?.oauth) {
    const { client_id, client_secret, ...rest } = stored.oauth;
    request.oauth = { ...rest, client_id: KEEP_SECRET, client_secret: keep(client_secret) ?? KEEP_SECRET };
    void client_id;
  }
  if (stored?.tls) {
    const tls = stored.tls;
    request.tls = {
      ...(tls.insecure_skip_verify !== undefined ? { insecure_skip_verify: tls.insecure_skip_verify } : {}),
      ...(tls.ca_cert_pem ? { ca_cert_pem: KEEP_SECRET } : {}),
      ...(tls.client_cert_pem ? { client_cert_pem: KEEP_SECRET } : {}),
      ...(tls.client_key_pem ? { client_key_pem: KEEP_SECRET } : {}),
    };
  }
  if (stored?.security_schemes?.length) request.security_schemes = stored.security_schemes;
  if (stored?.advanced !== undefined) request.advanced = stored.advanced;
  return request;
}

/** The register (or replace) request the form stands for; `stored` is the agent being edited. */
export function agentRequest(values: AgentFormValues, stored?: AgentView): AgentRequest {
  const runtime = authRequest(values.runtime_auth, stored?.runtime_auth);
  const discovery = authRequest(values.discovery_auth, stored?.discovery_auth);
  return {
    name: values.name.trim(),
    agent_card_url: values.agent_card_url.trim(),
    enabled: values.enabled,
    allow_by_default: values.allow_by_default,
    virtual_key_ids: values.virtual_key_ids,
    ...(stored ? { extension_uris: stored.extension_uris ?? [] } : {}),
    ...(stored
      ? {
          forward_accepted_credential: stored.forward_accepted_credential,
          forward_accepted_credential_overrides_auth: stored.forward_accepted_credential_overrides_auth,
        }
      : {}),
    ...(runtime ? { runtime_auth: runtime } : {}),
    ...(discovery ? { discovery_auth: discovery } : {}),
  };
}

/** Checks the constraints cannot express: a new header needs a value (a stored one left empty is kept). */
export function authProblems(values: AgentFormValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const phase of ['runtime_auth', 'discovery_auth'] as const) {
    const auth = values[phase];
    if (auth.type !== 'headers') continue;
    if (auth.headers.every((row) => row.name.trim() === ''))
      problems[`${phase}.type`] = 'Add at least one header, or choose None';
    auth.headers.forEach((row, i) => {
      if (row.name.trim() !== '' && row.value === '' && !row.stored)
        problems[`${phase}.headers.${i}.value`] = 'Type the value';
    });
  }
  return problems;
}

/** The form field of an API `error.param` about an authentication (`runtime_auth.headers.X-Key` → that row's value). */
export function authFieldOf(param: string, values: AgentFormValues): string | undefined {
  const match = param.match(/^(runtime_auth|discovery_auth)(?:\.(.*))?$/);
  if (!match) return undefined;
  const phase = match[1] as 'runtime_auth' | 'discovery_auth';
  const header = match[2]?.match(/^headers\.(.+)$/);
  if (header) {
    const index = values[phase].headers.findIndex((row) => row.name.trim() === header[1]);
    if (index >= 0) return `${phase}.headers.${index}.value`;
  }
  return `${phase}.type`;
}

/** The operations the history filters by (the API's `operations` values). */
export const OPERATIONS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
  'GetAgentCard',
  'PushNotification',
  'PushDelivery',
] as const;
