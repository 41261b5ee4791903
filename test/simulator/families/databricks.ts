import { newId } from '../answer.js';
import { bearer, type ErrorSpec, type Family, jsonReply, type Reply, type SimRequest } from '../family.js';
import { openaiFamily } from './openai.js';

const TOKEN_PATH = '/oidc/v1/token';
/** Access tokens the fake OIDC endpoint issues; a Bearer with this prefix is an OAuth M2M call, any other a PAT. */
export const DATABRICKS_OAUTH_TOKEN_PREFIX = 'dbx-oauth-';

/** Databricks' own error body (`{error_code, message}`). */
function databricksError(status: number, errorCode: string, message: string): Reply {
  return jsonReply(status, { error_code: errorCode, message });
}

function basicCredentials(req: SimRequest): { id: string; secret: string } | undefined {
  const auth = req.headers.authorization;
  if (typeof auth !== 'string' || !auth.toLowerCase().startsWith('basic ')) return undefined;
  const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) } : undefined;
}

/** `POST /oidc/v1/token`: `client_credentials` with HTTP Basic client auth, scope `all-apis`; one-hour tokens. */
function tokenOperation(req: SimRequest) {
  const form = new URLSearchParams(typeof req.body === 'string' ? req.body : '');
  if (req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') !== true) {
    return jsonReply(400, { error: 'invalid_request', error_description: 'Content-Type must be form-urlencoded' });
  }
  if (form.get('grant_type') !== 'client_credentials' || form.get('scope') !== 'all-apis') {
    return jsonReply(400, {
      error: 'invalid_request',
      error_description: 'grant_type client_credentials, scope all-apis',
    });
  }
  return () =>
    jsonReply(200, {
      access_token: `${DATABRICKS_OAUTH_TOKEN_PREFIX}${newId('')}`,
      token_type: 'Bearer',
      scope: 'all-apis',
      expires_in: 3600,
    });
}

/**
 * `/databricks` is a workspace host: `POST /oidc/v1/token` (OAuth M2M: Basic client id/secret → access token) and
 * the OpenAI-compatible serving surfaces `/serving-endpoints/…` and `/ai-gateway/mlflow/v1/…` (Bearer: a PAT or an
 * issued access token; OpenAI payloads). `key` is the client id on the token endpoint, the Bearer elsewhere.
 */
export const databricksFamily: Family = {
  name: 'databricks',

  authenticate(req) {
    if (req.sub === TOKEN_PATH) {
      const client = basicCredentials(req);
      req.key = client?.id;
      return client
        ? undefined
        : jsonReply(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    }
    req.key = bearer(req.headers);
    if (req.key !== undefined) return undefined;
    return databricksError(401, '401', 'Credential was not sent or was of an unsupported type for this API.');
  },

  route(req) {
    if (req.method === 'POST' && req.sub === TOKEN_PATH) return tokenOperation(req);
    if (req.sub.startsWith('/serving-endpoints/') || req.sub.startsWith('/ai-gateway/mlflow/v1/')) {
      return openaiFamily.route(req);
    }
    return databricksError(404, 'ENDPOINT_NOT_FOUND', `No API found for '${req.method} ${req.sub}'`);
  },

  error(req, spec: ErrorSpec) {
    return openaiFamily.error(req, spec);
  },
};
