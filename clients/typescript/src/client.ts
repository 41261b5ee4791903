import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { authHeaders, type GatewayAuth } from './auth.js';
import { errorFromResponse } from './errors.js';
import type { operations, paths } from './generated/openapi.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import { offsetPages, singlePage, type Paged } from './paging.js';

export interface GatewayClientOptions {
  /** The gateway's address, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  auth?: GatewayAuth;
  /** Retries on 429 and 503 (honouring `Retry-After`); `false` turns them off. */
  retry?: RetryOptions | false;
  /** Items per request when a list is paged (default 100, the API's maximum is 1000). */
  pageSize?: number;
  /** Sent as `User-Agent`. */
  userAgent?: string;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/** The typed openapi-fetch client over the management API. */
export type GatewayApi = Client<paths>;

/** The JSON body of an operation's request. */
export type RequestBody<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
/** The query parameters of an operation. */
export type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
/** A list's query without its paging parameters (the iterator pages). */
type Filters<Op extends keyof operations> = Omit<Query<Op>, 'limit' | 'offset'>;

/** A provider id (`openai`, `anthropic`, …). */
export type ProviderId = operations['getProvider']['parameters']['path']['provider'];

type Success<R> = R extends { data: infer D; error?: never } ? D : never;

/** The success body of a call (failures throw a GatewayApiError before this). */
async function ok<R extends { data?: unknown }>(call: Promise<R>): Promise<Success<R>> {
  return (await call).data as Success<R>;
}

/** Throws every answer that is not a success as a GatewayApiError, so callers read `data` only. */
const throwOnError: Middleware = {
  async onResponse({ request, response }) {
    if (!response.ok) throw await errorFromResponse(request, response);
    return undefined;
  },
};

/**
 * The management API: `api` is the generated, typed openapi-fetch client (every operation); the groups below are the
 * thin layer scripts use most, with failures thrown as GatewayApiError and every list an async iterator.
 */
export class GatewayClient {
  readonly api: GatewayApi;
  readonly baseUrl: string;
  private readonly pageSize: number;

  constructor(readonly options: GatewayClientOptions) {
    const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.pageSize = options.pageSize ?? 100;
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: options.retry === false ? baseFetch : retryingFetch(baseFetch, options.retry),
      headers: {
        ...authHeaders(options.auth),
        ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      },
    });
    this.api.use(throwOnError);
  }

  /**
   * Signs in with a dashboard username (or a user's email) and password and answers a client holding the session
   * token (`POST /api/session/login`); `logout()` on it ends the session.
   */
  static async login(
    options: Omit<GatewayClientOptions, 'auth'>,
    username: string,
    password: string,
  ): Promise<GatewayClient> {
    const anonymous = new GatewayClient(options);
    const session = await ok(anonymous.api.POST('/api/session/login', { body: { username, password } }));
    return new GatewayClient({ ...options, auth: { sessionToken: session.token } });
  }

  /** Ends the session this client presents (a session token or the setup session). */
  logout() {
    return ok(this.api.POST('/api/session/logout'));
  }

  /** The gateway's version, interface version and edition (public). */
  version() {
    return ok(this.api.GET('/api/version'));
  }

  /** Who the caller is and its permissions. */
  whoami() {
    return ok(this.api.GET('/api/governance/users/me/permissions'));
  }

  private paged<T>(fetchPage: (limit: number, offset: number) => Promise<{ items: T[]; total?: number }>): Paged<T> {
    return offsetPages(fetchPage, this.pageSize);
  }

  readonly providers = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/providers'))).providers),
    get: (provider: ProviderId) => ok(this.api.GET('/api/providers/{provider}', { params: { path: { provider } } })),
    create: (body: RequestBody<'createProvider'>) => ok(this.api.POST('/api/providers', { body })),
    update: (provider: ProviderId, body: RequestBody<'updateProvider'>) =>
      ok(this.api.PUT('/api/providers/{provider}', { params: { path: { provider } }, body })),
    delete: (provider: ProviderId) =>
      ok(this.api.DELETE('/api/providers/{provider}', { params: { path: { provider } } })),
  };

  /** Provider keys; values are redacted in every answer but the one that created them. */
  readonly keys = {
    list: (provider?: ProviderId) =>
      singlePage(async () =>
        provider
          ? (await ok(this.api.GET('/api/providers/{provider}/keys', { params: { path: { provider } } }))).keys
          : (await ok(this.api.GET('/api/keys'))).keys,
      ),
    get: (provider: ProviderId, keyId: string) =>
      ok(this.api.GET('/api/providers/{provider}/keys/{key_id}', { params: { path: { provider, key_id: keyId } } })),
    create: (provider: ProviderId, body: RequestBody<'createProviderKey'>) =>
      ok(this.api.POST('/api/providers/{provider}/keys', { params: { path: { provider } }, body })),
    update: (provider: ProviderId, keyId: string, body: RequestBody<'updateProviderKey'>) =>
      ok(
        this.api.PUT('/api/providers/{provider}/keys/{key_id}', {
          params: { path: { provider, key_id: keyId } },
          body,
        }),
      ),
    delete: (provider: ProviderId, keyId: string) =>
      ok(this.api.DELETE('/api/providers/{provider}/keys/{key_id}', { params: { path: { provider, key_id: keyId } } })),
  };

  readonly virtualKeys = {
    list: (filters: Filters<'listVirtualKeys'> = {}) =>
      this.paged(async (limit, offset) => {
        const page = await ok(
          this.api.GET('/api/governance/virtual-keys', { params: { query: { ...filters, limit, offset } } }),
        );
        return { items: page.virtual_keys, total: page.pagination.total_count };
      }),
    get: (id: string) => ok(this.api.GET('/api/governance/virtual-keys/{vk_id}', { params: { path: { vk_id: id } } })),
    create: (body: RequestBody<'createVirtualKey'>) => ok(this.api.POST('/api/governance/virtual-keys', { body })),
    update: (id: string, body: RequestBody<'updateVirtualKey'>) =>
      ok(this.api.PUT('/api/governance/virtual-keys/{vk_id}', { params: { path: { vk_id: id } }, body })),
    delete: (id: string) =>
      ok(this.api.DELETE('/api/governance/virtual-keys/{vk_id}', { params: { path: { vk_id: id } } })),
    /** A new value, shown once in the answer; the old one keeps working for `grace_period`. */
    rotate: (id: string, body: RequestBody<'rotateVirtualKey'> = {}) =>
      ok(this.api.POST('/api/governance/virtual-keys/{vk_id}/rotate', { params: { path: { vk_id: id } }, body })),
  };

  readonly teams = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/governance/teams'))).teams),
    get: (id: string) => ok(this.api.GET('/api/governance/teams/{team_id}', { params: { path: { team_id: id } } })),
    create: (body: RequestBody<'createTeam'>) => ok(this.api.POST('/api/governance/teams', { body })),
    update: (id: string, body: RequestBody<'updateTeam'>) =>
      ok(this.api.PUT('/api/governance/teams/{team_id}', { params: { path: { team_id: id } }, body })),
    delete: (id: string) =>
      ok(this.api.DELETE('/api/governance/teams/{team_id}', { params: { path: { team_id: id } } })),
    /** Enterprise: link a customer to the team. */
    linkCustomer: (id: string, customerId: string) =>
      ok(
        this.api.POST('/api/governance/teams/{team_id}/customers', {
          params: { path: { team_id: id } },
          body: { customer_id: customerId },
        }),
      ),
    unlinkCustomer: (id: string, customerId: string) =>
      ok(
        this.api.DELETE('/api/governance/teams/{team_id}/customers/{customer_id}', {
          params: { path: { team_id: id, customer_id: customerId } },
        }),
      ),
  };

  readonly customers = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/governance/customers'))).customers),
    get: (id: string) =>
      ok(this.api.GET('/api/governance/customers/{customer_id}', { params: { path: { customer_id: id } } })),
    create: (body: RequestBody<'createCustomer'>) => ok(this.api.POST('/api/governance/customers', { body })),
    update: (id: string, body: RequestBody<'updateCustomer'>) =>
      ok(this.api.PUT('/api/governance/customers/{customer_id}', { params: { path: { customer_id: id } }, body })),
    delete: (id: string) =>
      ok(this.api.DELETE('/api/governance/customers/{customer_id}', { params: { path: { customer_id: id } } })),
  };

  /** Every budget and rate limit with its owner (read-only views: budgets are set on their owners). */
  readonly budgets = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/governance/budgets'))).budgets),
    rateLimits: () => singlePage(async () => (await ok(this.api.GET('/api/governance/rate-limits'))).rate_limits),
  };

  readonly routingRules = {
    list: (filters: Filters<'listRoutingRules'> = {}) =>
      singlePage(
        async () => (await ok(this.api.GET('/api/governance/routing-rules', { params: { query: filters } }))).rules,
      ),
    get: (id: string) =>
      ok(this.api.GET('/api/governance/routing-rules/{rule_id}', { params: { path: { rule_id: id } } })),
    create: (body: RequestBody<'createRoutingRule'>) => ok(this.api.POST('/api/governance/routing-rules', { body })),
    update: (id: string, body: RequestBody<'updateRoutingRule'>) =>
      ok(this.api.PUT('/api/governance/routing-rules/{rule_id}', { params: { path: { rule_id: id } }, body })),
    delete: (id: string) =>
      ok(this.api.DELETE('/api/governance/routing-rules/{rule_id}', { params: { path: { rule_id: id } } })),
  };

  readonly pricingOverrides = {
    list: (filters: Filters<'listPricingOverrides'> = {}) =>
      this.paged(async (limit, offset) => {
        const page = await ok(
          this.api.GET('/api/governance/pricing-overrides', { params: { query: { ...filters, limit, offset } } }),
        );
        return { items: page.pricing_overrides, total: page.pagination.total_count };
      }),
    get: (id: string) => ok(this.api.GET('/api/governance/pricing-overrides/{id}', { params: { path: { id } } })),
    create: (body: RequestBody<'createPricingOverride'>) =>
      ok(this.api.POST('/api/governance/pricing-overrides', { body })),
    update: (id: string, body: RequestBody<'updatePricingOverride'>) =>
      ok(this.api.PUT('/api/governance/pricing-overrides/{id}', { params: { path: { id } }, body })),
    delete: (id: string) => ok(this.api.DELETE('/api/governance/pricing-overrides/{id}', { params: { path: { id } } })),
  };

  readonly modelConfigs = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/governance/model-configs'))).model_configs),
    get: (id: string) => ok(this.api.GET('/api/governance/model-configs/{mc_id}', { params: { path: { mc_id: id } } })),
    create: (body: RequestBody<'createModelConfig'>) => ok(this.api.POST('/api/governance/model-configs', { body })),
    update: (id: string, body: RequestBody<'updateModelConfig'>) =>
      ok(this.api.PUT('/api/governance/model-configs/{mc_id}', { params: { path: { mc_id: id } }, body })),
    delete: (id: string) =>
      ok(this.api.DELETE('/api/governance/model-configs/{mc_id}', { params: { path: { mc_id: id } } })),
  };

  /** Budgets and a rate limit over everything sent to one provider. */
  readonly providerGovernance = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/governance/providers'))).providers),
    put: (provider: ProviderId, body: RequestBody<'putProviderGovernance'>) =>
      ok(this.api.PUT('/api/governance/providers/{provider}', { params: { path: { provider } }, body })),
    delete: (provider: ProviderId) =>
      ok(this.api.DELETE('/api/governance/providers/{provider}', { params: { path: { provider } } })),
  };

  readonly mcpClients = {
    list: (filters: Filters<'listMcpClients'> = {}) =>
      this.paged(async (limit, offset) => {
        const page = await ok(this.api.GET('/api/mcp/clients', { params: { query: { ...filters, limit, offset } } }));
        return { items: page.clients, total: page.total_count };
      }),
    get: async (id: string) => (await ok(this.api.GET('/api/mcp/client/{id}', { params: { path: { id } } }))).client,
    create: async (body: RequestBody<'createMcpClient'>) =>
      (await ok(this.api.POST('/api/mcp/client', { body }))).client,
    update: async (id: string, body: RequestBody<'updateMcpClient'>) =>
      (await ok(this.api.PUT('/api/mcp/client/{id}', { params: { path: { id } }, body }))).client,
    delete: (id: string) => ok(this.api.DELETE('/api/mcp/client/{id}', { params: { path: { id } } })),
  };

  /** Access profile templates (enterprise edition). */
  readonly accessProfiles = {
    list: (filters: Filters<'listAccessProfiles'> = {}) =>
      this.paged(async (limit, offset) => {
        const page = await ok(
          this.api.GET('/api/governance/access-profiles', { params: { query: { ...filters, limit, offset } } }),
        );
        return { items: page.access_profiles, total: page.total_count };
      }),
    get: (id: number) =>
      ok(this.api.GET('/api/governance/access-profiles/{profile_id}', { params: { path: { profile_id: id } } })),
    create: async (body: RequestBody<'createAccessProfile'>) =>
      (await ok(this.api.POST('/api/governance/access-profiles', { body }))).access_profile,
    update: async (id: number, body: RequestBody<'updateAccessProfile'>) =>
      (
        await ok(
          this.api.PUT('/api/governance/access-profiles/{profile_id}', { params: { path: { profile_id: id } }, body }),
        )
      ).access_profile,
    delete: (id: number) =>
      ok(this.api.DELETE('/api/governance/access-profiles/{profile_id}', { params: { path: { profile_id: id } } })),
    /**
     * Starts a propagation: the answer is the result (200, finished within the gateway's wait) or `{ job_id }` (202);
     * follow a job with `propagation(job_id)`.
     */
    propagate: async (id: number, body: RequestBody<'propagateAccessProfile'>) => {
      const { data, response } = await this.api.POST('/api/governance/access-profiles/{profile_id}/propagate', {
        params: { path: { profile_id: id } },
        body,
      });
      return { status: response.status, body: data as unknown as Record<string, unknown> };
    },
    propagation: (jobId: string) =>
      ok(
        this.api.GET('/api/governance/access-profiles/propagations/{job_id}', {
          params: { path: { job_id: jobId } },
        }),
      ),
  };

  /** Circuit-breaker policies (enterprise edition). */
  readonly circuitBreakers = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/circuit-breaker/policies'))).policies),
    get: (name: string) => ok(this.api.GET('/api/circuit-breaker/policies/{name}', { params: { path: { name } } })),
    create: (body: RequestBody<'createCircuitBreakerPolicy'>) =>
      ok(this.api.POST('/api/circuit-breaker/policies', { body })),
    update: (name: string, body: RequestBody<'replaceCircuitBreakerPolicy'>) =>
      ok(this.api.PUT('/api/circuit-breaker/policies/{name}', { params: { path: { name } }, body })),
    delete: (name: string) =>
      ok(this.api.DELETE('/api/circuit-breaker/policies/{name}', { params: { path: { name } } })),
    state: () => ok(this.api.GET('/api/circuit-breaker/state')),
  };

  readonly agents = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/agents'))).agents),
    get: (name: string) => ok(this.api.GET('/api/agents/{name}', { params: { path: { name } } })),
    create: (body: RequestBody<'registerAgent'>) => ok(this.api.POST('/api/agents', { body })),
    update: (name: string, body: RequestBody<'updateAgent'>) =>
      ok(this.api.PUT('/api/agents/{name}', { params: { path: { name } }, body })),
    delete: (name: string) => ok(this.api.DELETE('/api/agents/{name}', { params: { path: { name } } })),
  };

  readonly webhooks = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/webhooks'))).webhooks),
    get: (id: string) => ok(this.api.GET('/api/webhooks/{id}', { params: { path: { id } } })),
    create: (body: RequestBody<'createWebhook'>) => ok(this.api.POST('/api/webhooks', { body })),
    update: (id: string, body: RequestBody<'updateWebhook'>) =>
      ok(this.api.PUT('/api/webhooks/{id}', { params: { path: { id } }, body })),
    delete: (id: string) => ok(this.api.DELETE('/api/webhooks/{id}', { params: { path: { id } } })),
  };

  /** Runtime settings: `get()` shows each with its source; `update()` takes a partial object. */
  readonly config = {
    get: () => ok(this.api.GET('/api/config')),
    update: (body: RequestBody<'updateConfig'>) => ok(this.api.PUT('/api/config', { body })),
  };

  readonly plugins = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/plugins'))).plugins),
    get: (name: string) => ok(this.api.GET('/api/plugins/{name}', { params: { path: { name } } })),
    update: (name: string, body: RequestBody<'updatePlugin'>) =>
      ok(this.api.PUT('/api/plugins/{name}', { params: { path: { name } }, body })),
  };

  readonly managementKeys = {
    list: () => singlePage(async () => (await ok(this.api.GET('/api/management-keys'))).management_keys),
    /** The key's value is in this answer only. */
    create: (body: RequestBody<'createManagementKey'>) => ok(this.api.POST('/api/management-keys', { body })),
    delete: (id: string) => ok(this.api.DELETE('/api/management-keys/{id}', { params: { path: { id } } })),
  };

  /** Request logs: list views (no contents), newest first unless `order: 'asc'`. */
  readonly logs = {
    list: (filters: Filters<'listLogs'> = {}) =>
      this.paged(async (limit, offset) => {
        const page = await ok(this.api.GET('/api/logs', { params: { query: { ...filters, limit, offset } } }));
        return { items: page.logs, total: page.pagination.total_count };
      }),
    get: (id: string) => ok(this.api.GET('/api/logs/{id}', { params: { path: { id } } })),
  };

  /** MCP tool logs. */
  readonly mcpLogs = {
    list: (filters: Filters<'listMcpLogs'> = {}) =>
      this.paged(async (limit, offset) => {
        const page = await ok(this.api.GET('/api/mcp-logs', { params: { query: { ...filters, limit, offset } } }));
        return { items: page.logs, total: page.pagination.total_count };
      }),
    get: (id: string) => ok(this.api.GET('/api/mcp-logs/{id}', { params: { path: { id } } })),
  };

  readonly auditLogs = {
    list: (filters: Filters<'listAuditLogs'> = {}) =>
      this.paged(async (limit, offset) => {
        const page = await ok(this.api.GET('/api/audit-logs', { params: { query: { ...filters, limit, offset } } }));
        return { items: page.audit_logs, total: page.pagination.total_count };
      }),
  };
}

/** A client for `options` (`new GatewayClient(options)`). */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  return new GatewayClient(options);
}
