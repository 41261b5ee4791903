import type { ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { Cancellation } from '../../../core/outbound/cancellation.js';
import { SseStreamTracker, startSse } from '../../../core/http/sse-relay.js';
import { Utf8StreamText } from '../../../core/http/utf8-stream-text.js';
import { InferenceMetrics } from '../inference-metrics.js';
import type { StreamCapture } from '../logs/stream-capture.js';
import { outputOf } from '../logs/log-content.js';
import { RequestLogRecorder, type ServedOutcome } from '../logs/request-log.recorder.js';
import { endFailedTrace, endServedTrace } from '../inference-tracing.js';
import { PriceTable } from '../pricing/price-table.js';
import { toOpenAiWireUsage, toResponsesWireUsage } from '../providers/openai-usage.js';
import type { NativeFrame, NativeStreamEncoder } from '../formats/native-format.js';
import type { Json, MediaAnswer, StreamOutput, Usage } from '../providers/provider-adapter.js';
import { MEDIA_KINDS } from '../media/media-kinds.js';
import { providerException } from '../providers/provider-exception.js';
import { REQUEST_TYPES, type InferenceCall, type RoutedResult } from '../routing/inference-call.js';
import { routingErrorFields, routingHeaders } from '../routing/routing-info.js';
import { ChatToResponsesStream, chatToResponsesResponse } from '../translation/responses-bridge.js';
import { wantsUsageChunk } from './inference-request.js';
import type { ProviderId } from '../../../core/errors/routing-info.dto.js';
import type { PluginAnswer, PluginJson } from '../../../core/plugins/gateway-plugin.js';
import type { PluginRun } from '../../../core/plugins/plugin-run.js';

/** A USD amount in plain decimal notation (never `1e-7`), to 12 places, trailing zeros dropped. */
export function usdText(usd: number): string {
  return usd.toFixed(12).replace(/\.?0+$/, '') || '0';
}

/** Headers of a served request besides routing info (decisions.md "Providers, keys and inference"). */
function servedHeaders(result: RoutedResult, costUsd?: number): Record<string, string> {
  const headers = routingHeaders(result.routing);
  if (result.admission) Object.assign(headers, result.admission.headers);
  if (result.fallbackIndex > 0) headers['x-gateway-fallback-index'] = String(result.fallbackIndex);
  if (costUsd !== undefined) headers['x-gateway-cost-usd'] = usdText(costUsd);
  headers['x-gateway-upstream-latency-ms'] = result.upstreamLatencyMs.toFixed(3);
  return headers;
}

/**
 * `encoding_format: "base64"` (the openai SDK's default): vectors as base64 of little-endian float32. Providers that
 * only return number arrays (Gemini) are converted here; an OpenAI-compatible provider already answered base64.
 */
function encodeEmbeddings(body: Json): void {
  if (!Array.isArray(body.data)) return;
  for (const item of body.data as Json[]) {
    const vector = item.embedding;
    if (!Array.isArray(vector)) continue;
    const floats = Float32Array.from(vector as number[]);
    item.embedding = Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
  }
}

/**
 * A failure after the stream started: the upstream went silent past the request timeout (504 `upstream_timeout`, as
 * a silence before the headers is), broke off (502), or whatever the decoder or outbound raised.
 */
function midStreamError(err: unknown): GatewayException {
  if (err instanceof GatewayException) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new GatewayException(504, 'upstream_timeout', "The provider's stream stalled past the request timeout", {
      reason: 'provider_timeout',
      cause: err,
    });
  }
  return new GatewayException(
    502,
    'upstream_error',
    `The provider's stream broke off${typeof code === 'string' ? ` (${code})` : ''}`,
    { reason: 'provider_connection_failed', cause: err },
  );
}

/** A usage priced at zero: what a plugin's answer (a cache hit) costs. */
function freeUsage(usage: PluginJson | Usage | undefined): Usage | undefined {
  return usage ? { ...(usage as unknown as Usage), cost: { total_cost: 0 } } : undefined;
}

function isChunk(output: unknown): boolean {
  return (output as { kind?: unknown } | null)?.kind === 'chunk';
}

/** A plugin's answer as the served-answer path sees a routed one: its provider and model, no key, no upstream time. */
function answeredResult(call: InferenceCall, answer: PluginAnswer, bridged: boolean): RoutedResult {
  return {
    routing: { provider: answer.provider as ProviderId, model: answer.model },
    fallbackIndex: 0,
    retries: 0,
    upstreamLatencyMs: 0,
    provider: answer.provider as ProviderId,
    upstreamKind: bridged ? 'chat' : call.kind,
    bridged,
    pricedModel: answer.model,
    keyName: '',
    keyId: '',
    modelStartedAt: performance.now(),
    modelRetries: 0,
  };
}

/** A unary answer as the caller gets it; `binary` (audio, a text transcript) is sent instead of `body`. */
export interface ServedAnswer {
  body: Json;
  headers: Record<string, string>;
  usage: Usage | undefined;
  binary?: MediaAnswer;
}

/**
 * Turns a routed result into the caller's answer: usage in the contract's shape with its cost, the served headers,
 * unary JSON or Server-Sent Events (OpenAI chunks and `[DONE]`, or Responses typed events), and one metrics record
 * when the request is over.
 */
@Injectable()
export class InferenceResponder {
  constructor(
    private readonly prices: PriceTable,
    private readonly metrics: InferenceMetrics,
    private readonly streams: SseStreamTracker,
    private readonly logs: RequestLogRecorder,
  ) {}

  /**
   * The priced usage: with a pricing override covering the request, the table's price patched with it; else the
   * provider's cost when it sent one, else the price table's; absent when unknown.
   */
  price(call: InferenceCall, result: RoutedResult, usage: Usage | undefined): Usage | undefined {
    if (!usage) return undefined;
    const override = call.pricing?.find({
      provider: result.provider,
      providerKeyId: result.keyId,
      virtualKeyId: call.virtualKey?.id,
      model: result.routing.model ?? result.pricedModel,
      requestType: REQUEST_TYPES[call.kind],
    });
    const cost = this.prices.costOf(result.provider, result.pricedModel, usage, undefined, override?.patch);
    return cost ? { ...usage, cost } : usage;
  }

  /** The answer's body, its served headers and its priced usage. */
  unary(call: InferenceCall, result: RoutedResult, request: FastifyRequest, started: number): ServedAnswer {
    const parsed = result.unary!;
    const usage = this.price(call, result, parsed.usage);
    let body = parsed.body;
    if (result.bridged) body = chatToResponsesResponse(body, call.body, usage) as unknown as Json;
    // Logged before base64 encoding: an embeddings summary needs the vectors' length, never the vectors.
    const output = call.log ? outputOf(call.kind, body) : undefined;
    if (call.kind === 'embeddings' && call.body.encoding_format === 'base64') encodeEmbeddings(body);
    // A media answer keeps its own usage shape (images and transcripts count input_tokens / output_tokens).
    if (usage && !MEDIA_KINDS.has(call.kind)) {
      body.usage = call.kind === 'responses' ? toResponsesWireUsage(usage) : toOpenAiWireUsage(usage);
    }
    this.record(call, result, request, 200, started, usage);
    // The cost charged to budgets is the one logged and sent in x-gateway-cost-usd.
    result.admission?.commit({ costUsd: usage?.cost?.total_cost, tokens: usage?.total_tokens });
    // A binary answer's body is not the answer: post-response hooks (a cache's write) see JSON answers only.
    this.afterUnary(call, result, body, usage, output, false, parsed.binary !== undefined);
    const headers = servedHeaders(result, usage?.cost?.total_cost);
    if (call.plugins?.headers) Object.assign(headers, call.plugins.headers);
    return { body, headers, usage, binary: parsed.binary };
  }

  /**
   * A unary answer a plugin gave (a cache hit), as the caller gets it: the served headers of its provider and model
   * plus the answer's, priced at zero, charged to nothing (no provider was called, nothing was admitted).
   */
  answered(
    call: InferenceCall,
    answer: Extract<PluginAnswer, { type: 'unary' }>,
    request: FastifyRequest,
    started: number,
  ): ServedAnswer {
    const result = answeredResult(call, answer, false);
    const usage = freeUsage(answer.usage);
    const body = answer.body;
    if (usage && !MEDIA_KINDS.has(call.kind)) {
      body.usage = call.kind === 'responses' ? toResponsesWireUsage(usage) : toOpenAiWireUsage(usage);
    }
    const output = call.log ? outputOf(call.kind, body) : undefined;
    this.record(call, result, request, 200, started, usage);
    this.afterUnary(call, result, body, usage, output, true, false);
    const headers = servedHeaders(result, 0);
    Object.assign(headers, call.plugins?.headers, answer.headers);
    return { body, headers, usage };
  }

  /**
   * After the answer is written (the caller sends it synchronously once the responder returns): the post-response
   * hooks, then the log row (so it carries what they logged). The row waits, not the caller.
   */
  private afterUnary(
    call: InferenceCall,
    result: RoutedResult,
    body: Json,
    usage: Usage | undefined,
    output: ServedOutcome['output'],
    fromPlugin: boolean,
    binary: boolean,
  ): void {
    const log = call.log;
    const plugins = call.plugins;
    const writeRow = log ? () => this.logs.served(call, log, result, { status: 200, usage, output }) : undefined;
    if (plugins?.wantsResponse && !binary) {
      const response = {
        status: 200,
        provider: result.provider,
        model: result.routing.model ?? result.pricedModel,
        body,
        usage: usage as PluginJson | undefined,
        fromPlugin,
      };
      queueMicrotask(() => void plugins.response(response).then(writeRow));
      return;
    }
    if (writeRow) queueMicrotask(writeRow);
  }

  async stream(
    call: InferenceCall,
    result: RoutedResult,
    request: FastifyRequest,
    reply: FastifyReply,
    abort: Cancellation,
    started: number,
    native?: NativeStreamEncoder,
  ): Promise<void> {
    const { upstream, decoder } = result.stream!;
    const head = servedHeaders(result);
    if (call.plugins?.headers) Object.assign(head, call.plugins.headers);
    if (native) head['content-type'] = native.contentType;
    // The head goes out with the first event (one write instead of two); the routing headers still precede any byte.
    const raw = startSse(request, reply, head, { flush: false });
    // A client that goes away aborts `abort` (the controller listens for it); undici, which holds the same signal,
    // then destroys the upstream body with the abort reason, which ends the loop below.
    const untrack = this.streams.add(abort);
    const writer = new StreamWriter(
      call,
      result,
      raw,
      (usage) => this.price(call, result, usage),
      call.log?.capture,
      native,
    );
    let failure: GatewayException | undefined;
    try {
      const text = new Utf8StreamText();
      for await (const chunk of upstream.body) {
        if (writer.ttftMs === undefined) writer.ttftMs = performance.now() - started;
        // A binary framing (Bedrock's event stream) is decoded from the bytes, every other one from text.
        const outputs = decoder.pushBytes
          ? decoder.pushBytes(chunk as Buffer)
          : decoder.push(text.write(chunk as Buffer));
        failure = writer.write(outputs);
        writer.flush();
        if (failure) break;
      }
      if (!decoder.pushBytes) failure ??= writer.write(decoder.push(text.end()));
      failure ??= writer.write(decoder.end());
      if (!failure) writer.finish();
    } catch (err) {
      if (!abort.aborted) failure = midStreamError(err);
    } finally {
      untrack();
    }
    if (failure && !raw.writableEnded) writer.error(failure, request);
    if (!raw.writableEnded) writer.end();
    upstream.body.destroy();
    const status = abort.aborted ? 499 : failure ? failure.status : 200;
    // On the final usage; a stream that failed after usage was reported is billed too, one cut off by the client
    // before its usage is charged the estimate, one the provider failed without usage nothing.
    if (failure && !abort.aborted && !writer.usage) result.admission?.release();
    else result.admission?.commit({ costUsd: writer.usage?.cost?.total_cost, tokens: writer.usage?.total_tokens });
    await this.streamEnded(call, result, request, writer, status, started, failure, false);
  }

  /**
   * A stream a plugin gave (a cache hit), written as a provider's would be: one group of canonical outputs per write
   * (the original chunking), through the same writer (the caller's framing, native encoders), priced at zero.
   */
  async replay(
    call: InferenceCall,
    answer: Extract<PluginAnswer, { type: 'stream' }>,
    request: FastifyRequest,
    reply: FastifyReply,
    abort: Cancellation,
    started: number,
    native?: NativeStreamEncoder,
  ): Promise<void> {
    // A Responses stream that was bridged to chat replays chat chunks: the writer bridges them again.
    const bridged = call.kind === 'responses' && answer.groups.some((g) => g.some((o) => isChunk(o)));
    const result = answeredResult(call, answer, bridged);
    const head = servedHeaders(result, 0);
    Object.assign(head, call.plugins?.headers, answer.headers);
    if (native) head['content-type'] = native.contentType;
    const raw = startSse(request, reply, head, { flush: false });
    const writer = new StreamWriter(call, result, raw, freeUsage, call.log?.capture, native);
    let failure: GatewayException | undefined;
    for (const group of answer.groups) {
      if (abort.aborted) break;
      writer.ttftMs ??= performance.now() - started;
      failure = writer.write(group as StreamOutput[]);
      writer.flush();
      if (failure) break;
    }
    if (!failure && !abort.aborted) writer.finish();
    if (failure && !raw.writableEnded) writer.error(failure, request);
    if (!raw.writableEnded) writer.end();
    const status = abort.aborted ? 499 : failure ? failure.status : 200;
    await this.streamEnded(call, result, request, writer, status, started, failure, true);
  }

  /** Metrics, the stream-end hooks, then the log row (so it carries what they logged). */
  private async streamEnded(
    call: InferenceCall,
    result: RoutedResult,
    request: FastifyRequest,
    writer: StreamWriter,
    status: number,
    started: number,
    failure: GatewayException | undefined,
    fromPlugin: boolean,
  ): Promise<void> {
    this.record(call, result, request, status, started, writer.usage, writer.ttftMs, failure);
    const plugins = call.plugins;
    if (plugins?.wantsEnd) {
      await plugins.streamEnd({
        status,
        provider: result.provider,
        model: result.routing.model ?? result.pricedModel,
        usage: writer.usage as PluginJson | undefined,
        failed: status !== 200,
        fromPlugin,
      });
    }
    if (call.log) {
      this.logs.served(call, call.log, result, { status, usage: writer.usage, ttftMs: writer.ttftMs, failure });
    }
  }

  /** A request that failed before any answer (routing, every attempt, validation after auth). */
  failed(call: InferenceCall | undefined, err: unknown, started: number): void {
    if (!call) return;
    const view = toErrorResponse(err);
    const info = (view.body.extra_fields.routing_info ?? {}) as { provider?: string; model?: string; key?: string };
    this.metrics.record({
      provider: info.provider ?? 'unknown',
      model: info.model ?? String(call.body.model),
      key: info.key ?? '',
      virtual_key: call.virtualKey?.name,
      request_type: REQUEST_TYPES[call.kind],
      status: view.status,
      error_type: view.body.extra_fields.error_type as string | undefined,
      retries: call.progress.retries,
      latency_seconds: (performance.now() - started) / 1000,
    });
    if (call.trace) endFailedTrace(call.trace, call, view, info);
  }

  private record(
    call: InferenceCall,
    result: RoutedResult,
    request: FastifyRequest,
    status: number,
    started: number,
    usage?: Usage,
    ttftMs?: number,
    failure?: GatewayException,
  ): void {
    if (call.trace) endServedTrace(call.trace, result, status, usage, failure);
    this.metrics.record({
      provider: result.provider,
      model: result.routing.model ?? '',
      key: result.keyName,
      virtual_key: call.virtualKey?.name,
      request_type: REQUEST_TYPES[call.kind],
      status,
      error_type: failure?.reason,
      retries: result.retries,
      fallback_index: result.fallbackIndex,
      latency_seconds: (performance.now() - started) / 1000,
      ttft_seconds: ttftMs === undefined ? undefined : ttftMs / 1000,
      usage,
      cost: usage?.cost,
    });
    // The access line of an inference request says who and what: never a secret (names and ids only).
    request.logFields = {
      ...request.logFields,
      virtual_key: call.virtualKey?.name,
      provider: result.provider,
      model: result.routing.model,
      total_tokens: usage?.total_tokens,
      cost_usd: usage?.cost?.total_cost,
    };
  }
}

/** Writes canonical stream outputs in the caller's framing. */
class StreamWriter {
  usage: Usage | undefined;
  ttftMs: number | undefined;
  private readonly includeUsage: boolean;
  private readonly bridge: ChatToResponsesStream | undefined;
  private lastChunk: Json | undefined;
  /**
   * Events decoded from one upstream read, sent in one write: a provider's burst of events costs one system call, not
   * one per event, and no event waits for a later read.
   */
  private out = '';
  /** A native encoder's binary frames waiting for the next write (Bedrock's event stream); `out` stays empty then. */
  private frames: Uint8Array[] = [];
  /** The last chunk when it was relayed as sent (parsed only for the ids of the closing usage chunk). */
  private lastRaw: string | undefined;
  /** The provider's usage-only chunk (parsed for its usage), whose ids the closing usage chunk takes. */
  private usageChunk: Json | undefined;
  private readonly plugins: PluginRun | undefined;
  /** The deferred flush waiting for the end of this event-loop turn. */
  private flushing: NodeJS.Immediate | undefined;

  constructor(
    private readonly call: InferenceCall,
    private readonly result: RoutedResult,
    private readonly raw: ServerResponse,
    private readonly price: (usage: Usage | undefined) => Usage | undefined,
    private readonly capture: StreamCapture | undefined,
    private readonly native: NativeStreamEncoder | undefined,
  ) {
    this.includeUsage = wantsUsageChunk(call.body);
    this.plugins = call.plugins?.watchesChunks ? call.plugins : undefined;
    this.bridge = result.bridged ? new ChatToResponsesStream(call.body) : undefined;
  }

  /** Writes the outputs; returns the failure when one of them is a provider error. */
  write(outputs: StreamOutput[]): GatewayException | undefined {
    // The plugins' chunk hooks (and a recording of the stream), only when some enabled plugin has them.
    if (this.plugins !== undefined) outputs = this.plugins.chunks(outputs);
    for (const output of outputs) {
      this.capture?.add(output);
      switch (output.kind) {
        case 'chunk': {
          if (output.usage) this.usage = this.price(output.usage);
          if (this.native) {
            this.append(this.native.push(output.chunk, output.usage ? this.usage : undefined, output.opening));
            break;
          }
          if (this.bridge) {
            for (const e of this.bridge.push(output.chunk)) this.event(e.event, e.data);
            break;
          }
          const relayed = output.raw === undefined ? undefined : this.relayable(output.raw);
          if (relayed !== undefined) {
            this.lastRaw = relayed;
            this.out += `data: ${relayed}\n\n`;
            break;
          }
          const chunk = output.chunk;
          const choices = chunk.choices;
          // The usage-only chunk is re-sent at the end, priced, when the caller asked for it.
          if (Array.isArray(choices) && choices.length === 0 && chunk.usage !== undefined) {
            this.usageChunk = chunk;
            break;
          }
          // OpenAI sends `"usage": null` on every chunk of a stream that asked for usage.
          chunk.usage = this.includeUsage ? null : undefined;
          this.lastChunk = chunk;
          this.lastRaw = undefined;
          this.out += `data: ${JSON.stringify(chunk)}\n\n`;
          break;
        }
        case 'event': {
          const data = output.data;
          if (output.usage) {
            this.usage = this.price(output.usage);
            const response = data.response as Json | undefined;
            if (response && this.usage) response.usage = toResponsesWireUsage(this.usage);
          }
          this.event(output.event, data);
          break;
        }
        case 'error':
          return providerException(output.error, {
            extraFields: { ...routingErrorFields(this.result.routing), request_type: REQUEST_TYPES[this.call.kind] },
          });
      }
    }
    return undefined;
  }

  /** Sends what is left with the end of the response (one write). */
  end(): void {
    if (this.flushing !== undefined) {
      clearImmediate(this.flushing);
      this.flushing = undefined;
    }
    this.raw.end(this.take());
  }

  /**
   * Sends what the last upstream read produced once this turn of the event loop is over (`setImmediate` runs before
   * the loop polls for I/O again, so no event waits for a later read): when that read also ended the upstream body, as
   * a provider's last burst usually does, the events leave with the end of the response in one write instead of two.
   */
  flush(): void {
    if (this.flushing === undefined && (this.out !== '' || this.frames.length > 0)) {
      this.flushing = setImmediate(this.flushNow);
    }
  }

  private readonly flushNow = (): void => {
    this.flushing = undefined;
    // A client that went away meanwhile: nothing more to send.
    if (this.raw.writableEnded || this.raw.destroyed) return;
    const pending = this.take();
    if (pending.length > 0) this.raw.write(pending);
  };

  /** What waits to be written, taken: a native encoder's binary frames (then `out` is empty), else the text. */
  private take(): Buffer | string {
    if (this.frames.length > 0) {
      const bytes = Buffer.concat(this.frames);
      this.frames = [];
      return bytes;
    }
    const text = this.out;
    this.out = '';
    return text;
  }

  /** A native encoder's frames: text joins `out`, binary frames wait in `frames`. */
  private append(frames: NativeFrame[]): void {
    for (const frame of frames) {
      if (typeof frame === 'string') this.out += frame;
      else this.frames.push(frame);
    }
  }

  /**
   * A provider chunk as the caller gets it, without parsing: as sent when the caller asked for usage (OpenAI then
   * sends `"usage":null` on every chunk), else without the `"usage":null` the gateway's own request caused.
   * Undefined: the chunk needs the parsed path.
   */
  private relayable(raw: string): string | undefined {
    if (this.includeUsage) return raw;
    const at = raw.indexOf(',"usage":null');
    if (at >= 0) return raw.slice(0, at) + raw.slice(at + 13);
    return raw.includes('"usage"') ? undefined : raw;
  }

  /** The stream's regular end: the priced usage chunk and `[DONE]`, or the bridge's closing events. */
  finish(): void {
    if (this.native) {
      this.append(this.native.finish(this.usage));
      return;
    }
    if (this.bridge) {
      for (const e of this.bridge.finish(this.usage)) this.event(e.event, e.data);
      return;
    }
    // Responses and speech streams end with their own terminal event; only chat and completions send [DONE].
    if (this.call.kind === 'responses' || this.call.kind === 'speech') return;
    if (this.includeUsage && this.usage) {
      // The ids come from the provider's own usage chunk when it sent one, else from the last chunk relayed.
      const last =
        (this.usageChunk?.id !== undefined ? this.usageChunk : undefined) ??
        (this.lastRaw !== undefined ? (JSON.parse(this.lastRaw) as Json) : this.lastChunk) ??
        {};
      const usageChunk = {
        id: last.id,
        object: last.object ?? 'chat.completion.chunk',
        created: last.created,
        model: last.model,
        choices: [],
        usage: toOpenAiWireUsage(this.usage),
      };
      this.out += `data: ${JSON.stringify(usageChunk)}\n\n`;
    }
    this.out += 'data: [DONE]\n\n';
  }

  /** The stream's last event after a failure: the GatewayError, in the framing the caller's SDK reads as an error. */
  error(err: GatewayException, request: FastifyRequest): void {
    const view = toErrorResponse(err, request.errorFields);
    if (this.native) {
      this.append(this.native.error(view));
      return;
    }
    const data = JSON.stringify(view.body);
    this.out += this.call.kind === 'responses' ? `event: error\ndata: ${data}\n\n` : `data: ${data}\n\n`;
  }

  /** A typed event; OpenAI's speech events carry their type in the data only, without an `event:` line. */
  private event(event: string, data: object): void {
    const name = this.call.kind === 'speech' ? '' : `event: ${event}\n`;
    this.out += `${name}data: ${JSON.stringify(data)}\n\n`;
  }
}
