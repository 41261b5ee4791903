import { Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type {
  CompleteRequest,
  GetPromptRequest,
  Prompt,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC, JsonRpcError } from '../jsonrpc-error.js';
import {
  exposedToolName,
  McpToolCatalog,
  McpToolExecutor,
  splitToolName,
  type ExposedClient,
  type McpRelayedCall,
} from '../mcp-contract.js';
import { asJsonRpcError, CallerRelays, type Exchange, type Extra, type Scope } from './caller-relay.js';
import { McpSessions } from './mcp-sessions.js';

/** Most prompts, resources or templates in one list page; a longer list continues with `nextCursor`. */
export const OFFER_PAGE_SIZE = 100;

/**
 * One page of `items` from an opaque cursor (the offset, base64url) as a list result (`{ [key]: page, nextCursor? }`);
 * an invalid cursor is -32602.
 */
export function pageOf<K extends string, T>(
  key: K,
  items: readonly T[],
  cursor: string | undefined,
): { [k in K]: T[] } & { nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const offset = Buffer.from(cursor, 'base64url').toString('utf8');
    if (!/^[1-9]\d*$/.test(offset) || Buffer.from(offset, 'utf8').toString('base64url') !== cursor) {
      throw new JsonRpcError(JSONRPC.invalidParams, 'Invalid cursor');
    }
    start = Number(offset);
  }
  const end = start + OFFER_PAGE_SIZE;
  const page = { [key]: items.slice(start, end) } as { [k in K]: T[] };
  return end < items.length ? { ...page, nextCursor: Buffer.from(String(end)).toString('base64url') } : page;
}

const compiled = new WeakMap<ResourceTemplate, UriTemplate>();
function templateMatches(template: ResourceTemplate, uri: string): boolean {
  let uriTemplate = compiled.get(template);
  if (!uriTemplate) {
    uriTemplate = new UriTemplate(template.uriTemplate);
    compiled.set(template, uriTemplate);
  }
  return uriTemplate.match(uri) !== null;
}

/**
 * Prompts, resources and completions of the clients that serve a caller, as the gateway's MCP server offers them: on
 * `/mcp/{client}` that client's under their own names, on `/mcp` every client's, prompt, resource and template names
 * as `<client>-<name>` (as tools are). Resource URIs keep their own form everywhere (tool results and other resources
 * carry them as they are): a read, subscription or completion on `/mcp` goes to the first client, by name, that lists
 * the URI, else the first with a template matching it. Lists come from memory (each client's, as its server listed
 * them); every other request is relayed over the client's kept connection through the executor, which logs it with
 * its kind (`prompt`, `resource`, `completion`). The caller's access is the catalog's client rule.
 */
@Injectable()
export class McpOffers {
  constructor(
    private readonly catalog: McpToolCatalog,
    private readonly executor: McpToolExecutor,
    private readonly relays: CallerRelays,
    private readonly sessions: McpSessions,
  ) {}

  /** The clients `scope` reaches: all those serving the caller, or the one of the path. */
  clientsOf(scope: Scope): readonly ExposedClient[] {
    const clients = this.catalog.clientsFor(scope.caller);
    return scope.client === undefined ? clients : clients.filter((c) => c.name === scope.client);
  }

  /** Every prompt `scope` sees, sorted by the name the caller sees. */
  prompts(scope: Scope): Prompt[] {
    return this.named(scope, (c) => c.prompts);
  }

  resources(scope: Scope): Resource[] {
    return this.named(scope, (c) => c.resources);
  }

  resourceTemplates(scope: Scope): ResourceTemplate[] {
    return this.named(scope, (c) => c.resourceTemplates);
  }

  private named<T extends { name: string }>(scope: Scope, of: (client: ExposedClient) => readonly T[]): T[] {
    const own = scope.client !== undefined;
    const items = this.clientsOf(scope).flatMap((c) =>
      own ? [...of(c)] : of(c).map((item) => ({ ...item, name: exposedToolName(c.name, item.name) })),
    );
    return own ? items : items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async getPrompt(exchange: Exchange, server: Server, params: GetPromptRequest['params'], extra: Extra) {
    const { client, name } = this.promptTarget(exchange.scope, params.name);
    const result = await this.relay(exchange, server, extra, client, {
      kind: 'prompt',
      method: 'prompts/get',
      params: { name, ...(params.arguments ? { arguments: params.arguments } : {}) },
      logName: exposedToolName(client.name, name),
    });
    return result;
  }

  async readResource(exchange: Exchange, server: Server, uri: string, extra: Extra) {
    const client = this.resourceOwner(exchange.scope, uri);
    return this.relay(exchange, server, extra, client, {
      kind: 'resource',
      method: 'resources/read',
      params: { uri },
      logName: uri,
    });
  }

  async complete(exchange: Exchange, server: Server, params: CompleteRequest['params'], extra: Extra) {
    const ref = params.ref;
    let client: ExposedClient;
    let relayed: typeof ref;
    let logName: string;
    if (ref.type === 'ref/prompt') {
      const target = this.promptTarget(exchange.scope, ref.name);
      client = target.client;
      relayed = { ...ref, name: target.name };
      logName = exposedToolName(client.name, target.name);
    } else {
      client = this.resourceOwner(exchange.scope, ref.uri, true);
      relayed = ref;
      logName = ref.uri;
    }
    return this.relay(exchange, server, extra, client, {
      kind: 'completion',
      method: 'completion/complete',
      params: { ...params, ref: relayed },
      logName,
    });
  }

  /** Subscribes the caller's session (updates go to its GET stream); a caller without a session cannot. */
  async subscribe(exchange: Exchange, uri: string, subscribe: boolean): Promise<Record<string, never>> {
    const session = exchange.session;
    if (!session) {
      throw new JsonRpcError(
        JSONRPC.invalidRequest,
        'Resource subscriptions need an MCP session (Mcp-Session-Id from initialize): updates go to its GET stream',
      );
    }
    const client = this.resourceOwner(exchange.scope, uri);
    try {
      if (subscribe) await this.sessions.subscribe(session, client.id, uri, client.timeoutMs);
      else await this.sessions.unsubscribe(session, client.id, uri);
    } catch (err) {
      throw asJsonRpcError(err);
    }
    return {};
  }

  private async relay(
    exchange: Exchange,
    server: Server,
    extra: Extra,
    client: ExposedClient,
    call: Pick<McpRelayedCall, 'kind' | 'method' | 'params' | 'logName'>,
  ): Promise<Record<string, unknown>> {
    const caller = exchange.scope.caller;
    return this.relays.running(exchange, extra, async (signal) => {
      try {
        return await this.executor.relay({
          ...call,
          virtualKey: caller.virtualKey,
          metadata: caller.metadata,
          client,
          signal,
          relay: this.relays.relayFor(exchange, server, extra, client.name),
        });
      } catch (err) {
        throw asJsonRpcError(err);
      }
    });
  }

  /** The client and the upstream name of a prompt as the caller named it. */
  private promptTarget(scope: Scope, name: string): { client: ExposedClient; name: string } {
    const split = scope.client === undefined ? splitToolName(name) : { client: scope.client, tool: name };
    const client = split ? this.clientsOf(scope).find((c) => c.name === split.client) : undefined;
    if (!client || !split) {
      const who = scope.caller.virtualKey ? `virtual key '${scope.caller.virtualKey.name}'` : 'callers without a key';
      throw new JsonRpcError(JSONRPC.invalidParams, `Prompt '${name}' does not exist or is not available to ${who}`);
    }
    return { client, name: split.tool };
  }

  /** The client a URI (or, for a completion, a template) is read from; -32002 when no client of the scope has it. */
  private resourceOwner(scope: Scope, uri: string, template = false): ExposedClient {
    const clients = this.clientsOf(scope);
    const owner =
      scope.client !== undefined
        ? clients[0]
        : (clients.find((c) => c.resources.some((r) => r.uri === uri)) ??
          clients.find((c) =>
            c.resourceTemplates.some((t) => (template ? t.uriTemplate === uri : templateMatches(t, uri))),
          ));
    if (!owner) throw new JsonRpcError(JSONRPC.resourceNotFound, `Resource not found: ${uri}`, { uri });
    return owner;
  }
}
