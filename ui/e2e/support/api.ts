import type { Gateway } from './gateway';

/** Management credentials of a gateway: the setup token, or the admin's Basic pair. */
export type Credentials = { setupToken: string } | { basic: { username: string; password: string } };

/**
 * The gateway's HTTP API, for seeding what a test needs (never its database): providers, keys, virtual keys, roles,
 * users, and inference requests through `/v1`.
 */
export class GatewayApi {
  constructor(
    readonly gateway: Pick<Gateway, 'url'>,
    private readonly credentials: Credentials,
  ) {}

  private headers(): Record<string, string> {
    if ('setupToken' in this.credentials) return { 'x-gateway-setup-token': this.credentials.setupToken };
    const { username, password } = this.credentials.basic;
    return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.gateway.url}${path}`, {
      method,
      headers: { ...this.headers(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The OpenAI family on the simulator, one key; returns nothing. */
  async addOpenAi(simulatorUrl: string): Promise<void> {
    await this.request('POST', '/api/providers', { provider: 'openai', base_url: `${simulatorUrl}/openai/v1` });
    await this.request('POST', '/api/providers/openai/keys', { name: 'sim-key', value: 'sk-sim-anything' });
  }

  /**
   * An MCP client `name` on a Streamable HTTP server, every tool allowed and `autoExecute` run by agent mode, for the
   * virtual key `virtualKeyId`; its tools are then called `<name>-<tool>`.
   */
  async addMcpClient(name: string, url: string, virtualKeyId: string, autoExecute: string[]): Promise<void> {
    await this.request('POST', '/api/mcp/client', {
      name,
      connection_type: 'http',
      connection_string: url,
      tools_to_execute: ['*'],
      tools_to_auto_execute: autoExecute,
      vk_configs: [{ virtual_key_id: virtualKeyId }],
    });
  }

  /** A virtual key; returns its id and value. */
  async createVirtualKey(name: string): Promise<{ id: string; value: string }> {
    const created = await this.request<{ virtual_key: { id: string; value: string } }>(
      'POST',
      '/api/governance/virtual-keys',
      { name },
    );
    return created.virtual_key;
  }
}

/**
 * One chat completion through the gateway's `/v1`; returns the request id (the log row's id), the status, and what the
 * gateway says it cost (`x-gateway-cost-usd`) and counted (`usage.total_tokens`), 0 when it does not say.
 */
export async function chat(
  gateway: Pick<Gateway, 'url'>,
  virtualKey: string,
  body: Record<string, unknown>,
): Promise<{ id: string; status: number; cost: number; tokens: number }> {
  const res = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${virtualKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hello from the dashboard test' }], ...body }),
  });
  const text = await res.text();
  let tokens = 0;
  if (res.ok) tokens = (JSON.parse(text) as { usage?: { total_tokens?: number } }).usage?.total_tokens ?? 0;
  return {
    id: res.headers.get('x-request-id') ?? '',
    status: res.status,
    cost: Number(res.headers.get('x-gateway-cost-usd') ?? 0),
    tokens,
  };
}

/** `count` chat completions, `concurrency` at a time. */
export async function chatMany(
  gateway: Pick<Gateway, 'url'>,
  virtualKey: string,
  count: number,
  body: Record<string, unknown>,
  concurrency = 16,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const { status } = await chat(gateway, virtualKey, body);
      if (status !== 200) throw new Error(`chat answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
