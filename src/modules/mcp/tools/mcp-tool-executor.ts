import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { GovernanceEnforcer } from '../../governance/index.js';
import {
  McpCallError,
  McpToolCatalog,
  McpToolExecutor,
  McpToolLogWriter,
  McpToolTransport,
  type ExposedTool,
  type McpRelayedCall,
  type McpToolCall,
} from '../mcp-contract.js';
import { isPending } from '../../../core/async/maybe-promise.js';

/**
 * The one place a tool call goes through, whoever asked (the execute endpoint, agent mode, `/mcp`): the caller's
 * allow-list, the call over the client's connection, its log row (`processing`, then how it ended) and its price
 * charged to the virtual key's budgets on success.
 */
@Injectable()
export class GatewayToolExecutor extends McpToolExecutor {
  constructor(
    private readonly catalog: McpToolCatalog,
    private readonly transport: McpToolTransport,
    private readonly logs: McpToolLogWriter,
    private readonly governance: GovernanceEnforcer,
  ) {
    super();
  }

  async execute(call: McpToolCall): Promise<{ logId: string; result: CallToolResult; tool: ExposedTool }> {
    const tool = await this.allowed(call);
    const logId = randomUUID();
    const vk = call.virtualKey;
    this.logs.started({
      id: logId,
      timestamp: new Date(),
      tool_name: tool.name,
      server_label: tool.clientName,
      virtual_key_id: vk?.id,
      virtual_key_name: vk?.name,
      llm_request_id: call.llmRequestId,
      arguments: call.arguments,
      metadata: call.metadata,
    });
    const started = performance.now();
    let result: CallToolResult;
    try {
      result = await this.transport.callTool(tool.clientId, tool.tool.name, call.arguments, {
        timeoutMs: tool.timeoutMs,
        signal: call.signal,
        relay: call.relay,
        meta: call.meta,
      });
    } catch (err) {
      const failure = callFailure(`Tool ${tool.name}`, tool.timeoutMs, err);
      this.logs.finished(logId, {
        status: 'error',
        latency: performance.now() - started,
        error_details: toErrorResponse(failure).body as unknown as Record<string, unknown>,
      });
      return { logId, tool, result: { content: [{ type: 'text', text: failure.message }], isError: true } };
    }
    const latency = performance.now() - started;
    if (result.isError === true) {
      // The tool ran and said it failed: an error row that keeps the result (no price: nothing was delivered).
      const failure = new GatewayException(502, 'upstream_error', `Tool ${tool.name} failed: ${textOf(result)}`, {
        reason: 'provider_server_error',
      });
      this.logs.finished(logId, {
        status: 'error',
        latency,
        result,
        error_details: toErrorResponse(failure).body as unknown as Record<string, unknown>,
      });
      return { logId, tool, result };
    }
    this.logs.finished(logId, { status: 'success', latency, result, cost: tool.costUsd });
    if (vk && tool.costUsd > 0) this.governance.charge(vk.id, tool.costUsd);
    return { logId, tool, result };
  }

  async relay(call: McpRelayedCall): Promise<Record<string, unknown>> {
    const logId = randomUUID();
    const vk = call.virtualKey;
    this.logs.started({
      id: logId,
      timestamp: new Date(),
      tool_name: call.logName,
      server_label: call.client.name,
      mcp_request_type: call.kind,
      virtual_key_id: vk?.id,
      virtual_key_name: vk?.name,
      arguments: call.params,
      metadata: call.metadata,
    });
    const started = performance.now();
    try {
      const result = await this.transport.request(call.client.id, call.method, call.params, {
        timeoutMs: call.client.timeoutMs,
        signal: call.signal,
        relay: call.relay,
      });
      this.logs.finished(logId, {
        status: 'success',
        mcp_request_type: call.kind,
        latency: performance.now() - started,
        result,
      });
      return result;
    } catch (err) {
      const failure = callFailure(`${call.method} ${call.logName}`, call.client.timeoutMs, err);
      this.logs.finished(logId, {
        status: 'error',
        mcp_request_type: call.kind,
        latency: performance.now() - started,
        error_details: toErrorResponse(failure).body as unknown as Record<string, unknown>,
      });
      throw err;
    }
  }

  /**
   * The tool when the caller may use it; else 403 `tool_blocked`, saying whether the tool does not exist or exists
   * and is not the caller's to use, and naming it as the caller did (without the prefix on `/mcp/{client}`).
   */
  private async allowed(call: McpToolCall): Promise<ExposedTool> {
    const listed = this.catalog.toolsFor(call);
    const tools = isPending(listed) ? await listed : listed;
    const tool = tools.find((t) => t.name === call.name);
    if (tool) return tool;
    const scope = call.clientScope;
    const shown =
      scope !== undefined && call.name.startsWith(`${scope}-`) ? call.name.slice(scope.length + 1) : call.name;
    const where = scope !== undefined ? ` on MCP client '${scope}'` : '';
    const who = call.virtualKey ? `virtual key '${call.virtualKey.name}'` : 'callers without a virtual key';
    const message = this.catalog.toolExists(call.name)
      ? `Tool '${shown}'${where} is not available to ${who}`
      : `Tool '${shown}' does not exist${where}`;
    throw new GatewayException(403, 'tool_blocked', message, {
      reason: 'policy_tool_blocked',
      extraFields: { tool_name: call.name },
    });
  }
}

/** A call that got no result, as a GatewayError: a timeout 504, anything else 502. `what` names the call. */
function callFailure(what: string, timeoutMs: number, err: unknown): GatewayException {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof McpCallError && err.kind === 'timeout') {
    return new GatewayException(504, 'upstream_timeout', `${what} timed out after ${timeoutMs} ms`, {
      reason: 'provider_timeout',
    });
  }
  const jsonrpc = err instanceof McpCallError && err.kind === 'jsonrpc';
  return new GatewayException(502, 'upstream_error', `${what} failed: ${message}`, {
    reason: jsonrpc ? 'provider_server_error' : 'provider_connection_failed',
    extraFields: jsonrpc && err.code !== undefined ? { jsonrpc_code: err.code } : undefined,
  });
}

/** The text parts of a result, joined (what an error result says). */
export function textOf(result: CallToolResult): string {
  return result.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}
