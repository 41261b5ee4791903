import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { OpenAiCompatibleAdapter } from './openai-compatible.adapter.js';
import { OPENAI_COMPATIBLE_PROFILES, OPENAI_PATHS } from './openai-compatible.table.js';
import type { AdapterIo, InferenceKind, Json, ProviderTarget, UpstreamCall } from '../shared/provider-adapter.js';
import { refreshTime, TokenCache, tokenAnswer, tokenFailure } from '../shared/token-cache.js';

/** A key value `oauth:<client_id>:<client_secret>` is a service principal's OAuth M2M credential, not a PAT. */
export const DATABRICKS_OAUTH_PREFIX = 'oauth:';

const SERVING_ENDPOINTS = '/serving-endpoints';
/** Unity Catalog models (`catalog.schema.model`) are served by the AI Gateway's MLflow surface. */
const MLFLOW_GATEWAY = '/ai-gateway/mlflow/v1';

const tokens = new TokenCache<string>();

/** The client id and secret of an OAuth key value, or undefined for a personal access token. */
export function databricksOAuthClient(value: string): { id: string; secret: string } | undefined {
  if (!value.startsWith(DATABRICKS_OAUTH_PREFIX)) return undefined;
  const rest = value.slice(DATABRICKS_OAUTH_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0 || colon === rest.length - 1) {
    throw GatewayException.validation('value', 'A Databricks OAuth key value is oauth:<client_id>:<client_secret>');
  }
  return { id: rest.slice(0, colon), secret: rest.slice(colon + 1) };
}

/**
 * Databricks Model Serving: the OpenAI wire format on the workspace host (the provider's `base_url`, required).
 *
 * - A serving endpoint name goes to `{host}/serving-endpoints/chat/completions` (and `/completions`,
 *   `/embeddings`) with the name as `model`; a dotted Unity Catalog name (`system.ai.llama`) goes to
 *   `{host}/ai-gateway/mlflow/v1/…`.
 * - Auth: a personal access token as Bearer, or OAuth M2M when the key value is `oauth:<client_id>:<client_secret>`:
 *   `authorize` exchanges it at `{host}/oidc/v1/token` (`client_credentials`, scope `all-apis`, HTTP Basic) and sends
 *   the access token as Bearer, cached per credential until shortly before it expires.
 */
export class DatabricksAdapter extends OpenAiCompatibleAdapter {
  constructor() {
    super('databricks', OPENAI_COMPATIBLE_PROFILES.databricks!);
  }

  override buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    databricksOAuthClient(target.key.value); // a malformed OAuth value is refused before any call
    const call = super.buildRequest(kind, body, target, stream);
    if (!target.model.includes('.')) return call;
    return { ...call, url: `${workspaceHost(target)}${MLFLOW_GATEWAY}${OPENAI_PATHS[kind]}` };
  }

  async authorize(call: UpstreamCall, target: ProviderTarget, io: AdapterIo): Promise<UpstreamCall> {
    const client = databricksOAuthClient(target.key.value);
    if (!client) return call;
    const host = workspaceHost(target);
    const token = await tokens.get(
      [host, client.id, client.secret],
      () => io.now(),
      async () => {
        const obtainedAt = io.now();
        const answer = tokenAnswer(
          'databricks',
          await io.post(
            `${host}/oidc/v1/token`,
            {
              authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
              accept: 'application/json',
            },
            'grant_type=client_credentials&scope=all-apis',
          ),
        );
        const { access_token: value, expires_in: lifetime } = answer;
        if (typeof value !== 'string' || value === '')
          tokenFailure('databricks', 'The token answer has no access_token');
        const seconds = typeof lifetime === 'number' && lifetime > 0 ? lifetime : 3600;
        return { value, refreshAt: refreshTime(obtainedAt, obtainedAt + seconds * 1000) };
      },
    );
    return { ...call, headers: { ...call.headers, authorization: `Bearer ${token}` } };
  }
}

/** The workspace host: the configured base without the `/serving-endpoints` suffix operators sometimes include. */
function workspaceHost(target: ProviderTarget): string {
  const base = target.baseUrl.replace(/\/+$/, '');
  return base.endsWith(SERVING_ENDPOINTS) ? base.slice(0, -SERVING_ENDPOINTS.length) : base;
}
