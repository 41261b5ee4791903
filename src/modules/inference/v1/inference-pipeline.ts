import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { directKeyOf } from '../../../core/auth/data-plane-credential.js';
import { sendRawJson } from '../../../core/http/raw-json.js';
import { headerValue } from '../../../core/http/request-header.js';
import { Cancellation } from '../../../core/outbound/cancellation.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { type PluginAnswer, PluginRegistry } from '../../plugins/index.js';
import { type Admission, PricingOverrides } from '../../governance/index.js';
import { InferenceTracing } from '../telemetry/inference-tracing.service.js';
import type { NativeOperation } from '../formats/native-format.js';
import { startInferenceTrace } from '../telemetry/inference-tracing.js';
import type { InferenceKind, Json } from '../providers/shared/provider-adapter.js';
import type { InferenceCall, RoutedResult, ServedAnswer } from '../routing/inference-call.js';
import { InferenceRouter } from '../routing/inference-router.service.js';
import { AnsweredRequestLimits } from '../routing/answered-request-limits.js';
import { NativeAsync } from '../async/native-async.js';
import { InferenceAgent, type InjectedTools } from './inference-agent.js';
import { validateInferenceBody } from './inference-request.js';
import { InferenceResponder, replaysChat } from './inference-responder.js';
import { InferenceCompletion } from '../completion/completion.js';
import { answeredResult } from '../completion/outcome.js';
import { isPending } from '../../../core/async/maybe-promise.js';

/** A provider-format route: the native operation and the route's path parameters. */
export interface NativeRoute {
  operation: NativeOperation;
  params: Record<string, string>;
}

/**
 * One inference request from body to answer, for /v1 and for every provider-format route: access, validation, MCP
 * tool injection, routing, then the unary answer or the stream, logged and metered once. A native route converts its
 * body to the canonical one first and its answer back last; everything between is the same code.
 */
@Injectable()
export class InferencePipeline {
  constructor(
    private readonly router: InferenceRouter,
    private readonly responder: InferenceResponder,
    private readonly completion: InferenceCompletion,
    private readonly tracing: InferenceTracing,
    private readonly pricing: PricingOverrides,
    private readonly agent: InferenceAgent,
    private readonly nativeAsync: NativeAsync,
    private readonly plugins: PluginRegistry,
    private readonly answeredLimits: AnsweredRequestLimits,
  ) {}

  async run(route: InferenceKind | NativeRoute, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (typeof route !== 'string' && NativeAsync.wanted(request)) {
      return this.nativeAsync.serve(route.operation, route.params, request, reply);
    }
    const started = performance.now();
    const native = typeof route === 'string' ? undefined : route.operation;
    const kind = native ? native.kind : (route as InferenceKind);
    const abort = new Cancellation();
    // A client that goes away cancels the upstream call (and any retry wait).
    const onClose = () => {
      if (!reply.raw.writableFinished) abort.abort(new Error('client disconnected'));
    };
    reply.raw.once('close', onClose);
    let call: InferenceCall | undefined;
    let source: unknown = request.body;
    // Decided by the data-plane authenticator before the body was read.
    const directKey = directKeyOf(request.credential);
    const asked = request.body as { stream?: unknown; stream_format?: unknown } | null;
    const log = this.completion.origin(request, started, asked?.stream === true || asked?.stream_format === 'sse');
    // A reservation the request holds until its completion settles it (a plugin's answer's, or a routed result's).
    let held: Admission | undefined;
    try {
      if (native) {
        source = native.toCanonical(
          request.body,
          (route as NativeRoute).params,
          (request.query ?? {}) as Record<string, string | undefined>,
          request.headers,
        ).body;
      }
      const validated = validateInferenceBody(kind, source);
      let body = validated.body;
      const stream = validated.stream;
      // A native route may stream by its path (`:streamGenerateContent`, `converse-stream`), not by a body flag.
      if (native && stream && log) this.completion.captureStream(log);
      // Nothing is built while no enabled plugin has a hook this request would call, or applies to it.
      const plugins = !this.plugins.wants({ kind, stream, body })
        ? undefined
        : this.plugins.begin({
            requestId: log?.logId ?? request.id,
            kind,
            body,
            stream,
            headers: request.headers,
            virtualKeyId: request.principal?.virtualKey?.id,
            startedPerf: started,
          });
      let answer: PluginAnswer | undefined;
      if (plugins) {
        if (log) log.pluginLogs = plugins.logs;
        // May rewrite the body (checked like the caller's), answer (a cache hit) or refuse (a thrown GatewayError).
        if (plugins.wantsRequest) answer = await plugins.request((rewritten) => revalidated(kind, rewritten, stream));
        body = plugins.body;
      }
      const keyId = headerValue(request, 'x-gateway-api-key-id');
      const keyName = headerValue(request, 'x-gateway-api-key');
      call = {
        kind,
        body,
        stream,
        pin: keyId || keyName ? { id: keyId, name: keyId ? undefined : keyName } : undefined,
        directKey,
        signal: abort,
        // Always present, undefined when logs are off: every call has the same shape.
        log,
        chain: log ? [] : undefined,
        virtualKey: request.principal?.virtualKey,
        headers: request.headers,
        query: request.query,
        progress: { retries: 0, upstreamLatencyMs: 0, fallbackIndex: 0 },
        trace: startInferenceTrace(this.tracing, kind, body, stream, request),
        pricing: undefined,
        plugins,
      };
      if (answer) {
        // A plugin's answer: no provider, no routing, no admission; served as a provider's answer would be.
        const counted = await this.answeredLimits.admit(call, answer.provider, answer.model);
        held = counted;
        if (counted?.headers && plugins) plugins.headers = { ...plugins.headers, ...counted.headers };
        // Only once it is served: a hit refused by the rate limits is logged as the refusal it is.
        if (log) log.cacheType = answer.headers?.['x-gateway-cache-type'] ?? null;
        if (answer.type === 'stream') {
          const encoder = native?.streamEncoder?.({ body, stream });
          const replayed = answeredResult(call, answer, replaysChat(call, answer));
          const tap = this.completion.freeTap(call);
          const end = await this.responder.replay(call, replayed, answer, request, reply, abort, started, tap, encoder);
          await this.completion.complete(call, request, started, {
            kind: 'replayed',
            result: replayed,
            end,
            admission: counted,
          });
          return;
        }
        const answering = call;
        const result = answeredResult(call, answer, false);
        const served = this.completion.complete(call, request, started, {
          kind: 'answered',
          result,
          answer,
          admission: counted,
          shape: (usage, keep) => this.responder.answered(answering, result, answer, usage, keep),
        });
        this.send(reply, native, { body, stream }, served);
        return;
      }
      const pricing = this.pricing.snapshot();
      call.pricing = isPending(pricing) ? await pricing : pricing;
      let tools: InjectedTools | undefined;
      if (kind === 'chat' || kind === 'responses') {
        const injecting = this.agent.inject(call);
        tools = isPending(injecting) ? await injecting : injecting;
        // Agent mode answers after rounds of tool calls: a round's answer is not the request's, so post-response
        // hooks (the cache's write) do not see rounds.
        if (tools?.agent && call.plugins) call.plugins.skipResponse();
      }
      // An async job's replay: the row records that the provider may now be called (and bill), before it is.
      if (request.jobTicket) await request.jobTicket.dispatched();
      const result: RoutedResult = await this.router.route(call);
      held = result.admission;
      if (result.stream) {
        const encoder = native?.streamEncoder?.({ body, stream });
        const tap = this.completion.tap(call, result);
        const end = await this.responder.stream(call, result, request, reply, abort, started, tap, encoder);
        await this.completion.complete(call, request, started, { kind: 'streamed', result, end });
        return;
      }
      const routed = call;
      const served: ServedAnswer = tools?.agent
        ? await this.agent.run(call, result, tools, request, started, (round, admission) => {
            call = round;
            held = admission;
          })
        : this.completion.complete(call, request, started, {
            kind: 'served',
            result,
            shape: (usage, keep) => this.responder.unary(routed, result, usage, keep),
          });
      if (served.binary) {
        // Audio, or a transcript as text: relayed with the provider's content-type.
        const head = { ...served.headers, 'content-type': served.binary.contentType };
        await reply.status(200).headers(head).send(served.binary.bytes);
        return;
      }
      this.send(reply, native, { body, stream }, served);
    } catch (err) {
      this.completion.complete(call, request, started, {
        kind: 'failed',
        error: err,
        origin: log,
        requestKind: kind,
        body: source,
        admission: held,
      });
      throw err;
    }
  }

  /** A unary answer in the caller's format: a native route converts the canonical body back. */
  private send(
    reply: FastifyReply,
    native: NativeOperation | undefined,
    request: { body: Json; stream: boolean },
    served: ServedAnswer,
  ): void {
    const answer: Json = native ? native.fromCanonical(served.body, served.usage, request) : served.body;
    sendRawJson(reply, 200, JSON.stringify(answer), served.headers);
  }
}

/** A body a plugin rewrote, checked as the caller's was; it may not turn a stream into a unary request or back. */
function revalidated(kind: InferenceKind, body: Json, stream: boolean): Json {
  const checked = validateInferenceBody(kind, body);
  if (checked.stream !== stream) throw GatewayException.validation('stream', 'A plugin may not change stream');
  return checked.body;
}
