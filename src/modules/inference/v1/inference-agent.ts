import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { InferenceTracing } from '../telemetry/inference-tracing.service.js';
import {
  McpToolCatalog,
  McpToolExecutor,
  type ExposedTool,
  answerToolCalls,
  callArguments,
  continueConversation,
  injectTools,
  narrowTools,
  toolResultText,
  type AnswerToolCall,
} from '../../mcp/index.js';
import { startInferenceTrace } from '../telemetry/inference-tracing.js';
import { toOpenAiWireUsage, toResponsesWireUsage } from '../providers/openai/openai-usage.js';
import type { Json, Usage } from '../providers/shared/provider-adapter.js';
import type { InferenceCall, RoutedResult } from '../routing/inference-call.js';
import { InferenceRouter } from '../routing/inference-router.service.js';
import { InferenceResponder, usdText } from './inference-responder.js';
import { InferenceCompletion } from '../completion/completion.js';
import type { Admission } from '../../governance/index.js';
import { isPending } from '../../../core/async/maybe-promise.js';

/** The MCP tools a request was given, when it was given any. */
export interface InjectedTools {
  tools: readonly ExposedTool[];
  /** Some tool is auto-executable, and the request is unary: agent mode may run. */
  agent: boolean;
}

/**
 * MCP tools in chat and Responses requests (docs/mcp.md): the tools the request's virtual key may use are offered to
 * the model, and in agent mode (non-streaming) the calls of auto-executable tools are run by the gateway and the model
 * asked again with their results, each round a normal routed call (governance, logs, metrics).
 */
@Injectable()
export class InferenceAgent {
  constructor(
    private readonly catalog: McpToolCatalog,
    private readonly executor: McpToolExecutor,
    private readonly router: InferenceRouter,
    private readonly responder: InferenceResponder,
    private readonly completion: InferenceCompletion,
    private readonly tracing: InferenceTracing,
    private readonly config: GatewayConfig,
  ) {}

  /**
   * Adds the caller's MCP tools to a chat or Responses body. A caller without any pays one catalog read (a shared
   * empty list: nothing allocated).
   */
  inject(call: InferenceCall): InjectedTools | undefined | Promise<InjectedTools | undefined> {
    // The call carries the virtual key as McpCaller wants it (`virtualKey: { id, name, mcp_grants }`): no caller object
    // is built.
    const listed = this.catalog.toolsFor(call);
    if (isPending(listed)) return listed.then((tools) => this.offer(call, tools));
    return this.offer(call, listed);
  }

  private offer(call: InferenceCall, available: readonly ExposedTool[]): InjectedTools | undefined {
    if (available.length === 0) return undefined;
    const kind = call.kind === 'chat' ? 'chat' : 'responses';
    const narrowed = call.headers ? narrowTools(available, call.headers) : available;
    if (narrowed.length === 0) return undefined;
    const tools = injectTools(kind, call.body, narrowed);
    if (tools.length === 0) return undefined;
    return { tools, agent: !call.stream && tools.some((t) => t.autoExecute) };
  }

  /**
   * Agent mode from the first round's result: while the answer's tool calls are all auto-executable ones (and
   * `mcp.max_agent_depth` rounds of calls have not run), runs them in parallel and asks the model again. Answers the
   * last round with the usage and cost of every round summed. Each round is completed as a served request of its own;
   * `track` learns each round's call and its reservation (a round that fails is completed as a failure of its own).
   */
  async run(
    first: InferenceCall,
    firstResult: RoutedResult,
    injected: InjectedTools,
    request: FastifyRequest,
    started: number,
    track: (call: InferenceCall, admission: Admission | undefined) => void,
  ): Promise<{ body: Json; headers: Record<string, string>; usage: Usage | undefined }> {
    const kind = first.kind === 'chat' ? 'chat' : 'responses';
    const llmRequestId = first.log?.logId ?? request.id;
    const auto = new Map<string, ExposedTool>();
    for (const t of injected.tools) if (t.autoExecute) auto.set(t.name, t);
    let call = first;
    let result = firstResult;
    let roundStarted = started;
    let total: Usage | undefined;
    let rounds = 0;
    for (;;) {
      const round = call;
      const routed = result;
      const served = this.completion.complete(round, request, roundStarted, {
        kind: 'served',
        result: routed,
        shape: (usage, keep) => this.responder.unary(round, routed, usage, keep),
      });
      total = addUsage(total, served.usage);
      const calls = answerToolCalls(kind, served.body);
      const runnable = calls.length > 0 && calls.every((c) => auto.has(c.name));
      if (!runnable || rounds >= this.config.mcp.max_agent_depth || call.signal.aborted) {
        if (rounds === 0) return served;
        return finalAnswer(kind, served, total);
      }
      rounds++;
      const results = await this.execute(call, calls, auto, llmRequestId);
      roundStarted = performance.now();
      call = this.nextRound(call, continueConversation(kind, call.body, served.body, calls, results), request, {
        agentRequestId: llmRequestId,
        round: rounds,
      });
      track(call, undefined);
      result = await this.router.route(call);
      track(call, result.admission);
    }
  }

  /** The calls of one answer, in parallel; each result (a failure too) as the text the model reads. */
  private execute(
    call: InferenceCall,
    calls: readonly AnswerToolCall[],
    auto: ReadonlyMap<string, ExposedTool>,
    llmRequestId: string,
  ): Promise<string[]> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(call.signal.reason);
    call.signal.once('abort', onAbort);
    const vk = call.virtualKey;
    const virtualKey = vk ? { id: vk.id, name: vk.name, mcp_grants: vk.mcp_grants } : undefined;
    const metadata = call.log?.metadata ?? undefined;
    return Promise.all(
      calls.map(async (c) => {
        const args = callArguments(c);
        if (typeof args === 'string') return args;
        try {
          const { result } = await this.executor.execute({
            name: auto.get(c.name)!.name,
            arguments: args,
            virtualKey,
            llmRequestId,
            metadata,
            signal: controller.signal,
          });
          return toolResultText(result);
        } catch (err) {
          // Refused (the tool left the key's allow-list since the request started): the model reads why.
          return err instanceof Error ? err.message : String(err);
        }
      }),
    ).finally(() => call.signal.removeListener('abort', onAbort));
  }

  /** The call of the next round: the same caller and key, a body one turn longer, a log row and a span of its own. */
  private nextRound(
    previous: InferenceCall,
    body: Json,
    request: FastifyRequest,
    agent: { agentRequestId: string; round: number },
  ): InferenceCall {
    const origin = previous.log;
    const log = origin
      ? {
          ...origin,
          logId: randomUUID(),
          startedAt: Date.now(),
          startedPerf: performance.now(),
          // The plugins' lines belong to the request's first row.
          pluginLogs: undefined,
          metadata: {
            ...origin.metadata,
            mcp_agent_request_id: agent.agentRequestId,
            mcp_agent_round: `${agent.round}`,
          },
        }
      : undefined;
    return {
      ...previous,
      body,
      log,
      chain: log ? [] : undefined,
      progress: { retries: 0, upstreamLatencyMs: 0, fallbackIndex: 0 },
      trace: startInferenceTrace(this.tracing, previous.kind, body, false, request),
    };
  }
}

/** The last round's answer with the usage of every round, and the summed cost in `x-gateway-cost-usd`. */
function finalAnswer(
  kind: 'chat' | 'responses',
  served: { body: Json; headers: Record<string, string>; usage: Usage | undefined },
  total: Usage | undefined,
): { body: Json; headers: Record<string, string>; usage: Usage | undefined } {
  if (!total) return served;
  served.usage = total;
  served.body.usage = kind === 'responses' ? toResponsesWireUsage(total) : toOpenAiWireUsage(total);
  const cost = total.cost?.total_cost;
  if (cost !== undefined) served.headers['x-gateway-cost-usd'] = usdText(cost);
  return served;
}

/** Two usages added member by member (token counts, details and cost parts); undefined stays the other. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  return addNumbers(a as unknown as Json, b as unknown as Json) as unknown as Usage;
}

function addNumbers(a: Json, b: Json): Json {
  const out: Json = { ...a };
  for (const key in b) {
    const x = a[key];
    const y = b[key];
    if (typeof y === 'number') out[key] = (typeof x === 'number' ? x : 0) + y;
    else if (typeof y === 'object' && y !== null && !Array.isArray(y)) {
      out[key] = typeof x === 'object' && x !== null && !Array.isArray(x) ? addNumbers(x as Json, y as Json) : y;
    }
  }
  return out;
}
