import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC, JsonRpcError } from '../jsonrpc-error.js';
import type { McpCallRelay, McpServerNotification } from '../mcp-contract.js';
import type { McpSdk } from '../mcp-sdk.js';

/**
 * What the gateway's own connection to a server declares, so a server may send, during a call, what the gateway
 * relays to the caller that asked for the call: sampling (with context and tools), form and URL elicitation, roots.
 * Each relayed request is checked against what that caller declared (`McpCallRelay.request` refuses otherwise).
 */
export const UPSTREAM_CLIENT_CAPABILITIES: ClientCapabilities = {
  sampling: { context: {}, tools: {} },
  elicitation: { form: {}, url: {} },
  roots: {},
};

/** A call in flight: its relay, or none (agent mode and `/v1/mcp/tool/execute` calls have nobody to relay to). */
interface RunningCall {
  relay?: McpCallRelay;
}

/** The call whose work is running: set around each request, read back when the server's messages arrive. */
const currentCall = new AsyncLocalStorage<RunningCall>();

/**
 * Which caller a server's message belongs to. One connection carries the calls of every caller, and the MCP wire
 * does not say which request a notification or a server request relates to (Streamable HTTP puts it on the POST's
 * response stream; the SDK client hands it over without that link). The message is read on that stream inside the
 * async context of the request that opened it, so the relay set around the request (AsyncLocalStorage) is the one
 * in force when it arrives. stdio and HTTP+SSE servers answer on one shared stream: there, a message goes to the only
 * call running on the connection, and is treated as unrelated when several are (a log line goes to every stream
 * that listens to the client; a server request is refused). Calls without a relay count too, so their messages never
 * reach another caller.
 */
export class UpstreamCalls {
  private readonly running = new Set<RunningCall>();

  /** Runs one request with its relay (or none) in force. */
  async run<T>(relay: McpCallRelay | undefined, request: () => Promise<T>): Promise<T> {
    const call: RunningCall = relay ? { relay } : {};
    this.running.add(call);
    try {
      return await currentCall.run(call, request);
    } finally {
      this.running.delete(call);
    }
  }

  /** The relay of the call the message being handled belongs to, if it can be told and the call has one. */
  current(): McpCallRelay | undefined {
    const call = currentCall.getStore();
    if (call && this.running.has(call)) return call.relay;
    if (this.running.size === 1) return this.running.values().next().value?.relay;
    return undefined;
  }

  /**
   * Installs the handlers of what a server sends on `client`: requests and log lines during a call go to its relay;
   * resource updates and log lines tied to no call go to `unrelated`.
   */
  install(client: Client, sdk: McpSdk, unrelated: (notification: McpServerNotification) => void): void {
    const {
      CreateMessageRequestSchema,
      ElicitRequestSchema,
      ListRootsRequestSchema,
      LoggingMessageNotificationSchema,
      ResourceUpdatedNotificationSchema,
    } = sdk.types;
    const relayRequest = (method: string, params: Record<string, unknown> | undefined, signal: AbortSignal) => {
      const relay = this.current();
      if (relay) return relay.request(method, params, signal);
      if (method === 'roots/list') return Promise.resolve({ roots: [] });
      throw new JsonRpcError(
        JSONRPC.invalidRequest,
        `The AI gateway relays ${method} to the caller of a tool call only while that call runs`,
      );
    };
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      relayRequest(request.method, request.params, extra.signal),
    );
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      relayRequest(request.method, request.params, extra.signal),
    );
    client.setRequestHandler(ListRootsRequestSchema, (request, extra) =>
      relayRequest(request.method, request.params, extra.signal),
    );
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const relay = this.current();
      if (relay) relay.log(notification.params);
      else unrelated({ method: 'notifications/message', params: notification.params });
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
      unrelated({ method: 'notifications/resources/updated', params: { uri: notification.params.uri } }),
    );
  }
}
