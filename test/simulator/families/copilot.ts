import { newId } from '../answer.js';
import { bearer, type ErrorSpec, type Family, jsonReply, nowSeconds, type Reply, type SimRequest } from '../family.js';
import { openaiFamily } from './openai.js';

const TOKEN_PATH = '/copilot_internal/v2/token';
/** The chat API the exchange points at: `{simulator}/copilot/api`. */
const API_PREFIX = '/api/';
/** Copilot session tokens look like `tid=…;exp=…;sku=…`; the chat API accepts only such a Bearer. */
const SESSION_PREFIX = 'tid=';
const EDITOR_HEADERS = ['editor-version', 'copilot-integration-id'] as const;

/** The GitHub token of `Authorization: token <t>` (or Bearer, which GitHub also accepts). */
function githubToken(req: SimRequest): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.toLowerCase().startsWith('token ')) return auth.slice(6).trim() || undefined;
  return bearer(req.headers);
}

function tokenOperation(req: SimRequest) {
  const host = req.headers.host ?? '127.0.0.1';
  return () => {
    const expires = nowSeconds() + 1800;
    return jsonReply(200, {
      token: `${SESSION_PREFIX}${newId('')};exp=${expires};sku=copilot_for_business_seat`,
      expires_at: expires,
      refresh_in: 1500,
      endpoints: { api: `http://${host}/copilot/api` },
    });
  };
}

const badRequest = (message: string): Reply => ({
  status: 400,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(message)) },
  body: message,
});

/**
 * `/copilot` is both GitHub's API (`GET /copilot_internal/v2/token` with `Authorization: token <github token>` →
 * `{token, expires_at, refresh_in, endpoints.api}`, `endpoints.api` pointing back at `/copilot/api`) and the Copilot
 * chat API (`/api/chat/completions`, `/api/embeddings`, `/api/models`: OpenAI payloads, a session token as Bearer,
 * and the editor headers, without which Copilot answers 400).
 */
export const copilotFamily: Family = {
  name: 'copilot',

  authenticate(req) {
    if (req.sub === TOKEN_PATH) {
      req.key = githubToken(req);
      if (req.key !== undefined) return undefined;
      return jsonReply(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    req.key = bearer(req.headers);
    if (req.key === undefined || !req.key.startsWith(SESSION_PREFIX)) {
      return badRequest('unauthorized: token expired or invalid');
    }
    for (const name of EDITOR_HEADERS) {
      if (req.headers[name] === undefined) return badRequest(`bad request: missing ${name} header for IDE auth`);
    }
    return undefined;
  },

  route(req) {
    if (req.method === 'GET' && req.sub === TOKEN_PATH) return tokenOperation(req);
    if (req.sub.startsWith(API_PREFIX)) return openaiFamily.route(req);
    return jsonReply(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
  },

  error(req, spec: ErrorSpec) {
    return openaiFamily.error(req, spec);
  },
};
