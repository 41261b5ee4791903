import { OPENAI_PATHS } from './openai-compatible.table.js';
import { openAiRequestBody, upstreamHeaders } from './openai-request.js';
import { unsupportedKind } from '../shared/native-adapter-parts.js';
import { OpenAiWireAdapter } from './openai-wire.adapter.js';
import type { AdapterIo, InferenceKind, Json, ProviderTarget, UpstreamCall } from '../shared/provider-adapter.js';
import { refreshTime, TokenCache, tokenAnswer, tokenFailure } from '../shared/token-cache.js';

/** Where the GitHub token is exchanged (GitHub Enterprise: the provider's `base_url`, e.g. `https://ghe.example/api/v3`). */
export const GITHUB_API_BASE_URL = 'https://api.github.com';
const TOKEN_PATH = '/copilot_internal/v2/token';
/** Used when the exchange names no API host. */
const DEFAULT_COPILOT_API = 'https://api.githubcopilot.com';

/**
 * The editor identity Copilot requires on every call (it refuses requests without one); a provider's `extra_headers`
 * may send another editor's.
 */
export const COPILOT_EDITOR_HEADERS: Readonly<Record<string, string>> = {
  'editor-version': 'vscode/1.99.0',
  'editor-plugin-version': 'copilot-chat/0.26.7',
  'copilot-integration-id': 'vscode-chat',
  'user-agent': 'GitHubCopilotChat/0.26.7',
  'openai-intent': 'conversation-panel',
};

interface CopilotSession {
  token: string;
  /** `endpoints.api` of the exchange: the host of the chat calls. */
  api: string;
}

const sessions = new TokenCache<CopilotSession>();

/**
 * GitHub Copilot: the OpenAI wire format on a host that comes from a token exchange.
 *
 * - The key value is a GitHub token (OAuth or PAT of a Copilot user). `authorize` exchanges it at
 *   `{base_url}/copilot_internal/v2/token` (`GET`, `Authorization: token …`; the provider's `base_url` is this
 *   GitHub API host, default `https://api.github.com`) for `{token, expires_at, refresh_in, endpoints.api}`, cached
 *   per GitHub token until `refresh_in` or shortly before `expires_at`.
 * - Calls go to `{endpoints.api}/chat/completions` (or `/embeddings`, `/models`) with `Authorization: Bearer <token>`
 *   and the editor headers. Built calls carry only the path: the host is known after the exchange.
 */
export class GitHubCopilotAdapter extends OpenAiWireAdapter {
  readonly kinds: ReadonlySet<InferenceKind> = new Set<InferenceKind>(['chat', 'embeddings']);

  defaultBaseUrl(): string {
    return GITHUB_API_BASE_URL;
  }

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    if (!this.kinds.has(kind)) throw unsupportedKind('github-copilot', kind);
    const streams = stream && kind === 'chat';
    return {
      method: 'POST',
      url: OPENAI_PATHS[kind],
      headers: copilotHeaders(target, { body: true, stream: streams }),
      body: JSON.stringify(openAiRequestBody(kind, body, target.model, streams)),
    };
  }

  buildListModels(target: ProviderTarget): UpstreamCall {
    return { method: 'GET', url: '/models', headers: copilotHeaders(target, { body: false, stream: false }) };
  }

  async authorize(call: UpstreamCall, target: ProviderTarget, io: AdapterIo): Promise<UpstreamCall> {
    const exchangeUrl = target.baseUrl.replace(/\/+$/, '') + TOKEN_PATH;
    const githubToken = target.key.value;
    if (!githubToken) tokenFailure('github-copilot', 'A GitHub Copilot key needs a GitHub token as its value', true);
    const session = await sessions.get(
      [exchangeUrl, githubToken],
      () => io.now(),
      async () => {
        const obtainedAt = io.now();
        const answer = tokenAnswer(
          'github-copilot',
          await io.get(exchangeUrl, {
            ...COPILOT_EDITOR_HEADERS,
            authorization: `token ${githubToken}`,
            accept: 'application/json',
          }),
        );
        const { token, expires_at: expiresAt, refresh_in: refreshIn, endpoints } = answer;
        if (typeof token !== 'string' || token === '') tokenFailure('github-copilot', 'The token answer has no token');
        const api = (endpoints as { api?: unknown } | undefined)?.api;
        const expiry = typeof expiresAt === 'number' ? expiresAt * 1000 : obtainedAt + 25 * 60_000;
        let refreshAt = refreshTime(obtainedAt, expiry);
        if (typeof refreshIn === 'number' && refreshIn >= 0)
          refreshAt = Math.min(refreshAt, obtainedAt + refreshIn * 1000);
        const host = typeof api === 'string' && api !== '' ? api.replace(/\/+$/, '') : DEFAULT_COPILOT_API;
        return { value: { token, api: host }, refreshAt };
      },
    );
    return {
      ...call,
      url: session.api + call.url,
      headers: { ...call.headers, authorization: `Bearer ${session.token}` },
    };
  }
}

/** The call's headers before authorization: editor identity, then extra headers, content negotiation; no key yet. */
function copilotHeaders(target: ProviderTarget, call: { body: boolean; stream: boolean }): Record<string, string> {
  const keyless: ProviderTarget = { ...target, key: { ...target.key, value: '' } };
  return { ...COPILOT_EDITOR_HEADERS, ...upstreamHeaders(keyless, 'bearer', call) };
}
