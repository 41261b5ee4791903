import {
  AzureKeyConfig,
  ProviderCreateRequest,
  ProviderKeyAlias,
  ProviderKeyCreateRequest,
} from '../../api/constraints.gen';
import type { Schema } from '../../api/schemas';
import { fieldProblem, isBlank, objectProblems } from '../../shared/forms/constraints';

export type ProviderView = Schema<'ProviderView'>;
export type ProviderKeyView = Schema<'ProviderKeyView'>;
type NetworkConfig = Schema<'ProviderNetworkConfig'>;

/** Every provider id the API accepts, from its own constraints. */
export const PROVIDER_IDS = (ProviderCreateRequest.properties.provider?.enum ?? []) as string[];

/** The keys of one provider, by name. */
export function keysOf(keys: readonly ProviderKeyView[], provider: string): ProviderKeyView[] {
  return keys.filter((key) => key.provider === provider).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Which models a key serves, as the router decides it (`keyAllows`): the block list wins, then `*` (every model), the
 * allow-list, or an alias.
 */
export function servedModels(key: Pick<ProviderKeyView, 'models' | 'blacklisted_models' | 'aliases'>): string {
  const aliases = Object.keys(key.aliases);
  const except = key.blacklisted_models.length ? ` except ${key.blacklisted_models.join(', ')}` : '';
  if (key.models.includes('*')) return `Every model${except}`;
  const listed = [...new Set([...key.models, ...aliases])].filter((m) => !key.blacklisted_models.includes(m));
  return listed.length ? listed.join(', ') : 'No model';
}

/** Models worth offering in the test dialog: those a key names (not `*`), then the usual first guess. */
export function modelSuggestions(keys: ReadonlyArray<Pick<ProviderKeyView, 'models' | 'aliases'>>): string[] {
  const names = keys.flatMap((key) => [...key.models, ...Object.keys(key.aliases)]).filter((m) => m !== '*');
  return [...new Set(names)].sort();
}

/** How a secret's redacted view reads: never a value, at most where it comes from. */
export function secretSource(value: Schema<'SecretValue'> | undefined): string {
  if (!value) return 'No value';
  if (value.type === 'env' || value.type === 'vault') return `Redacted (${value.ref})`;
  return 'Redacted';
}

/**
 * What a person sends back for a stored secret they left untouched: the API keeps the stored value for it
 * (`<REDACTED>` on an update, docs of SecretValue). The form never holds the redacted value as text.
 */
export const KEEP_SECRET = '<REDACTED>';

/**
 * One extra header as the form holds it. `value` is only what the user typed; `stored` is the header's name when it was
 * loaded with a stored value (then an empty `value` keeps it), `source` how that value reads (never the value).
 */
export interface HeaderRow extends Record<string, unknown> {
  name: string;
  value: string;
  stored: string;
  source: string;
}

/** The provider form's values: what the inputs hold. */
export interface ProviderFormValues extends Record<string, unknown> {
  provider: string;
  base_url: string;
  extra_headers: HeaderRow[];
  network_config: Record<keyof NetworkConfig, string>;
}

export function emptyHeader(): HeaderRow {
  return { name: '', value: '', stored: '', source: '' };
}

export function providerFormValues(view?: ProviderView): ProviderFormValues {
  const network = view?.network_config;
  return {
    provider: view?.provider ?? '',
    base_url: view?.base_url ?? '',
    extra_headers: Object.entries(view?.extra_headers ?? {}).map(([name, secret]) => ({
      name,
      value: '',
      stored: name,
      source: secretSource(secret),
    })),
    network_config: {
      default_request_timeout: network?.default_request_timeout ?? '',
      max_retries: network ? String(network.max_retries) : '',
      retry_backoff_initial: network?.retry_backoff_initial ?? '',
      retry_backoff_max: network?.retry_backoff_max ?? '',
    },
  };
}

/** A stored header left untouched (same name, case-insensitive as the API compares them; nothing typed). */
const keepsStored = (row: HeaderRow) =>
  row.value === '' && row.stored !== '' && row.stored.toLowerCase() === row.name.trim().toLowerCase();

/** The headers as the API's map: typed values as typed, untouched stored ones kept; blank new rows left out. */
function headersRequest(rows: readonly HeaderRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name === '' && row.value === '' && row.stored === '') continue;
    out[name] = keepsStored(row) ? KEEP_SECRET : row.value;
  }
  return out;
}

/** The extra headers' problems by form path (`extra_headers.1.value`), under the API's constraints of one value. */
export function headerProblems(rows: readonly HeaderRow[]): Record<string, string> {
  const rule = ProviderCreateRequest.properties.extra_headers!;
  const problems: Record<string, string> = {};
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const name = row.name.trim();
    if (name === '' && row.value === '' && row.stored === '') return;
    if (name === '') problems[`extra_headers.${i}.name`] = 'Required';
    else if (seen.has(name.toLowerCase())) problems[`extra_headers.${i}.name`] = 'Listed twice';
    seen.add(name.toLowerCase());
    if (keepsStored(row)) return;
    if (row.value === '')
      problems[`extra_headers.${i}.value`] = row.stored ? 'Renamed: type the value again' : 'Required';
    else {
      const problem = rule.values && fieldProblem(row.value, rule.values);
      if (problem) problems[`extra_headers.${i}.value`] = problem;
    }
  });
  const count = rows.filter((r) => r.name.trim() !== '').length;
  if (rule.maxProperties !== undefined && count > rule.maxProperties)
    problems.extra_headers = `At most ${rule.maxProperties} headers`;
  return problems;
}

/**
 * The form path of an API param the form holds as rows: `extra_headers.X-Org` (how the API names a header) is that
 * row's name input.
 */
export function providerFieldOf(param: string, values: ProviderFormValues): string | undefined {
  if (!param.startsWith('extra_headers.')) return undefined;
  const name = param.slice('extra_headers.'.length).toLowerCase();
  const i = values.extra_headers.findIndex((row) => row.name.trim().toLowerCase() === name);
  return i >= 0 ? `extra_headers.${i}.name` : 'extra_headers';
}

/** The network settings typed (blank ones left out: the API keeps or defaults them). */
function networkRequest(values: ProviderFormValues['network_config']): NetworkConfig | undefined {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(values)) {
    const text = raw.trim();
    if (text) out[name] = name === 'max_retries' ? Number(text) : text;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The create request (`POST /api/providers`): blank fields and an empty header list left out. */
export function createProviderRequest(values: ProviderFormValues): Schema<'ProviderCreateRequest'> {
  const headers = headersRequest(values.extra_headers);
  return {
    provider: values.provider as Schema<'ProviderCreateRequest'>['provider'],
    base_url: values.base_url.trim() || undefined,
    ...(Object.keys(headers).length ? { extra_headers: headers } : {}),
    network_config: networkRequest(values.network_config),
  };
}

/**
 * The update request (`PUT /api/providers/{provider}`): an emptied base URL clears the override; the header map is
 * always sent, since it replaces the stored one (a removed row is a removed header), its untouched values kept.
 */
export function updateProviderRequest(values: ProviderFormValues): Schema<'ProviderUpdateRequest'> {
  return {
    base_url: values.base_url.trim() || null,
    extra_headers: headersRequest(values.extra_headers),
    network_config: networkRequest(values.network_config),
  };
}

/** A model alias as the form holds it: the requested name, and what is sent upstream instead. */
export interface AliasRow extends Record<string, unknown> {
  alias: string;
  model_id: string;
  model_name: string;
  model_family: string;
}

/** An Azure deployment: the model requested, and its deployment's name. */
export interface DeploymentRow extends Record<string, unknown> {
  model: string;
  deployment: string;
}

/** The secrets of a Bedrock key; each is only what the user typed. */
export const BEDROCK_SECRETS = ['access_key', 'secret_key', 'session_token'] as const;
export type BedrockSecret = (typeof BEDROCK_SECRETS)[number];

/** Which provider-specific block a key of `provider` carries, and whether the API requires it there (key-rules.ts). */
export function keyBlockOf(
  provider: string,
): { field: 'azure_key_config' | 'bedrock_key_config' | 'vertex_key_config'; required: boolean } | undefined {
  if (provider === 'azure') return { field: 'azure_key_config', required: true };
  if (provider === 'bedrock') return { field: 'bedrock_key_config', required: true };
  if (provider === 'bedrock_mantle') return { field: 'bedrock_key_config', required: false };
  if (provider === 'vertex') return { field: 'vertex_key_config', required: true };
  return undefined;
}

/** The key form's values. Secrets (`value`, Bedrock's keys, Vertex's credentials) are only ever what the user typed. */
export interface KeyFormValues extends Record<string, unknown> {
  name: string;
  value: string;
  weight: string;
  models: string[];
  blacklisted_models: string[];
  aliases: AliasRow[];
  enabled: boolean;
  azure_key_config: { endpoint: string; api_version: string; deployments: DeploymentRow[] };
  bedrock_key_config: Record<'region' | BedrockSecret, string>;
  vertex_key_config: { project_id: string; region: string; auth_credentials: string };
  /** Stored Bedrock secrets the user chose to remove (not an API field: the block is sent without them). */
  bedrock_removed: BedrockSecret[];
}

export function emptyAlias(): AliasRow {
  return { alias: '', model_id: '', model_name: '', model_family: '' };
}

export function emptyDeployment(): DeploymentRow {
  return { model: '', deployment: '' };
}

export function keyFormValues(view?: ProviderKeyView): KeyFormValues {
  const azure = view?.azure_key_config;
  return {
    name: view?.name ?? '',
    value: '',
    weight: view ? String(view.weight) : '1',
    models: view ? [...view.models] : ['*'],
    blacklisted_models: view ? [...view.blacklisted_models] : [],
    aliases: Object.entries(view?.aliases ?? {}).map(([alias, a]) => ({
      alias,
      model_id: a.model_id,
      model_name: a.model_name ?? '',
      model_family: a.model_family ?? '',
    })),
    enabled: view?.enabled ?? true,
    azure_key_config: {
      endpoint: azure?.endpoint ?? '',
      api_version: azure?.api_version ?? '',
      deployments: Object.entries(azure?.deployments ?? {}).map(([model, deployment]) => ({ model, deployment })),
    },
    bedrock_key_config: {
      region: view?.bedrock_key_config?.region ?? '',
      access_key: '',
      secret_key: '',
      session_token: '',
    },
    vertex_key_config: {
      project_id: view?.vertex_key_config?.project_id ?? '',
      region: view?.vertex_key_config?.region ?? '',
      auth_credentials: '',
    },
    bedrock_removed: [],
  };
}

const isBlankRow = (row: Record<string, unknown>) => Object.values(row).every((v) => isBlank(v));

/** Typed text, or undefined when blank (the field is left out). */
const typed = (text: string) => (text.trim() === '' ? undefined : text.trim());

function aliasesRequest(rows: readonly AliasRow[]): Record<string, Schema<'ProviderKeyAlias'>> {
  const out: Record<string, Schema<'ProviderKeyAlias'>> = {};
  for (const row of rows) {
    if (isBlankRow(row)) continue;
    out[row.alias.trim()] = {
      model_id: row.model_id.trim(),
      ...(typed(row.model_name) ? { model_name: typed(row.model_name) } : {}),
      ...(typed(row.model_family) ? { model_family: typed(row.model_family) } : {}),
    };
  }
  return out;
}

function bedrockRequest(
  values: KeyFormValues,
  stored: ProviderKeyView['bedrock_key_config'],
): Schema<'BedrockKeyConfig'> {
  const block = values.bedrock_key_config;
  const out: Schema<'BedrockKeyConfig'> = { region: block.region.trim() };
  for (const field of BEDROCK_SECRETS) {
    if (block[field] !== '') out[field] = block[field];
    else if (stored?.[field] && !values.bedrock_removed.includes(field)) out[field] = KEEP_SECRET;
  }
  return out;
}

/**
 * The create or update request of a key of `provider` (`stored`: the key being edited). An empty value keeps the
 * stored one (the field is left out), a typed one replaces it (rotation). The provider's own block is sent whole, as
 * the API replaces a carried block: its untouched stored secrets as `<REDACTED>`, which the API keeps. On an update
 * the alias map is always sent (it replaces the stored one).
 */
export function keyRequest(
  values: KeyFormValues,
  provider: string,
  stored?: ProviderKeyView,
): Schema<'ProviderKeyCreateRequest'> {
  const weight = values.weight.trim();
  const aliases = aliasesRequest(values.aliases);
  const block = keyBlockOf(provider);
  const request: Schema<'ProviderKeyCreateRequest'> = {
    name: values.name.trim(),
    ...(values.value === '' ? {} : { value: values.value }),
    ...(weight === '' ? {} : { weight: Number(weight) }),
    models: values.models,
    blacklisted_models: values.blacklisted_models,
    ...(stored || Object.keys(aliases).length ? { aliases } : {}),
    enabled: values.enabled,
  };
  if (block?.field === 'azure_key_config') {
    const azure = values.azure_key_config;
    request.azure_key_config = {
      endpoint: azure.endpoint.trim(),
      ...(typed(azure.api_version) ? { api_version: typed(azure.api_version) } : {}),
      deployments: Object.fromEntries(
        azure.deployments.filter((d) => !isBlankRow(d)).map((d) => [d.model.trim(), d.deployment.trim()]),
      ),
    };
  }
  if (block?.field === 'bedrock_key_config') {
    const bedrock = values.bedrock_key_config;
    const used = block.required || stored?.bedrock_key_config || Object.values(bedrock).some((v) => v.trim() !== '');
    if (used) request.bedrock_key_config = bedrockRequest(values, stored?.bedrock_key_config);
  }
  if (block?.field === 'vertex_key_config') {
    const vertex = values.vertex_key_config;
    request.vertex_key_config = {
      project_id: vertex.project_id.trim(),
      region: vertex.region.trim(),
      auth_credentials:
        vertex.auth_credentials !== '' || !stored?.vertex_key_config ? vertex.auth_credentials : KEEP_SECRET,
    };
  }
  return request;
}

/**
 * What the API's constraints say of the rows the form edits in place of maps (aliases, Azure deployments), by form
 * path: each alias by `ProviderKeyAlias`, each deployment name by the map's value constraints, and names given once.
 */
export function keyRowProblems(values: KeyFormValues, provider: string): Record<string, string> {
  const problems: Record<string, string> = {};
  const names = (rows: ReadonlyArray<Record<string, unknown>>, field: string, path: string) => {
    const seen = new Set<string>();
    rows.forEach((row, i) => {
      if (isBlankRow(row)) return;
      const name = String(row[field]).trim();
      if (name === '') problems[`${path}.${i}.${field}`] = 'Required';
      else if (seen.has(name)) problems[`${path}.${i}.${field}`] = 'Listed twice';
      seen.add(name);
    });
  };
  names(values.aliases, 'alias', 'aliases');
  values.aliases.forEach((row, i) => {
    if (isBlankRow(row)) return;
    const request = { model_id: row.model_id.trim(), model_name: row.model_name, model_family: row.model_family };
    for (const [field, problem] of Object.entries(objectProblems(request, ProviderKeyAlias)))
      problems[`aliases.${i}.${field}`] = problem;
  });
  const aliasRule = ProviderKeyCreateRequest.properties.aliases!;
  if (aliasRule.maxProperties !== undefined && values.aliases.length > aliasRule.maxProperties)
    problems.aliases = `At most ${aliasRule.maxProperties} aliases`;
  if (keyBlockOf(provider)?.field === 'azure_key_config') {
    const rows = values.azure_key_config.deployments;
    names(rows, 'model', 'azure_key_config.deployments');
    const rule = AzureKeyConfig.properties.deployments!;
    rows.forEach((row, i) => {
      if (isBlankRow(row)) return;
      const problem =
        row.deployment.trim() === '' ? 'Required' : rule.values && fieldProblem(row.deployment, rule.values);
      if (problem) problems[`azure_key_config.deployments.${i}.deployment`] = problem;
    });
  }
  return problems;
}

/** A key's settings beyond its models, one line each, as the card shows them (secrets only by their source). */
export function keyDetails(
  key: Pick<ProviderKeyView, 'aliases' | 'azure_key_config' | 'bedrock_key_config' | 'vertex_key_config'>,
): string[] {
  const lines: string[] = [];
  const azure = key.azure_key_config;
  if (azure) {
    const deployments = Object.entries(azure.deployments).map(([model, name]) => `${model} → ${name}`);
    lines.push(
      [`Azure ${azure.endpoint}`, azure.api_version && `api-version ${azure.api_version}`, ...deployments]
        .filter(Boolean)
        .join(' · '),
    );
  }
  const bedrock = key.bedrock_key_config;
  if (bedrock) {
    const auth = bedrock.access_key
      ? `access key ${secretSource(bedrock.access_key)}${bedrock.session_token ? ' with a session token' : ''}`
      : 'API key';
    lines.push(`Bedrock ${bedrock.region} · ${auth}`);
  }
  const vertex = key.vertex_key_config;
  if (vertex) {
    lines.push(
      `Vertex ${vertex.project_id} / ${vertex.region} · service account ${secretSource(vertex.auth_credentials)}`,
    );
  }
  const aliases = Object.entries(key.aliases).map(([alias, a]) => `${alias} → ${a.model_id}`);
  if (aliases.length) lines.push(`Aliases: ${aliases.join(', ')}`);
  return lines;
}

/** A provider's extra headers as the card shows them: names, and where each value comes from (never the value). */
export function headersLine(headers: ProviderView['extra_headers']): string | undefined {
  const names = Object.entries(headers).map(([name, secret]) => `${name}: ${secretSource(secret)}`);
  return names.length ? `Headers: ${names.join(', ')}` : undefined;
}
