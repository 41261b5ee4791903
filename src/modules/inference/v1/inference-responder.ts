import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { Cancellation } from '../../../core/outbound/cancellation.js';
import { SseStreamTracker, SseWriter, startSse } from '../../../core/http/sse/sse-writer.js';
import { streamFailure } from '../../../core/http/sse/stream-failure.js';
import { Utf8StreamText } from '../../../core/http/utf8-stream-text.js';
import { toOpenAiWireUsage, toResponsesWireUsage } from '../providers/openai/openai-usage.js';
import type { NativeFrame, NativeStreamEncoder } from '../formats/native-format.js';
import type { Json, StreamOutput, Usage } from '../providers/shared/provider-adapter.js';
import { MEDIA_KINDS } from '../media/media-kinds.js';
import { providerException } from '../providers/shared/provider-exception.js';
import {
  REQUEST_TYPES,
  type InferenceCall,
  type RoutedResult,
  type ServedAnswer,
  type StreamEnd,
  type StreamTap,
} from '../routing/inference-call.js';
import { routingErrorFields, routingHeaders } from '../routing/routing-info.js';
import { ChatToResponsesStream, chatToResponsesResponse } from '../translation/responses-bridge.js';
import { wantsUsageChunk } from './inference-request.js';
import type { PluginAnswer, PluginRun } from '../../plugins/index.js';

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

function isChunk(output: unknown): boolean {
  return (output as { kind?: unknown } | null)?.kind === 'chunk';
}

/** Whether a replayed stream is a Responses stream that was bridged to chat (it replays chat chunks). */
export function replaysChat(call: InferenceCall, answer: Extract<PluginAnswer, { type: 'stream' }>): boolean {
  return call.kind === 'responses' && answer.groups.some((g) => g.some((o) => isChunk(o)));
}

/**
 * Writes an inference request's answer and nothing else: a unary answer in the caller's shape (usage in the
 * contract's shape with its cost, the served headers), or Server-Sent Events (OpenAI chunks and `[DONE]`, Responses
 * typed events, a native route's framing). Pricing, settlement, metrics, hooks and log rows are the completion's
 * (completion/completion.ts); a stream's usage chunks are priced through the tap it gives.
 */
@Injectable()
export class InferenceResponder {
  constructor(private readonly streams: SseStreamTracker) {}

  /** A provider's unary answer with its priced usage, as the caller gets it. */
  unary(
    call: InferenceCall,
    result: RoutedResult,
    usage: Usage | undefined,
    keepOutput: ((body: Json) => void) | undefined,
  ): ServedAnswer {
    const parsed = result.unary!;
    let body = parsed.body;
    if (result.bridged) body = chatToResponsesResponse(body, call.body, usage) as unknown as Json;
    // Kept before base64 encoding: an embeddings summary needs the vectors' length, never the vectors.
    keepOutput?.(body);
    if (call.kind === 'embeddings' && call.body.encoding_format === 'base64') encodeEmbeddings(body);
    // A media answer keeps its own usage shape (images and transcripts count input_tokens / output_tokens).
    if (usage && !MEDIA_KINDS.has(call.kind)) {
      body.usage = call.kind === 'responses' ? toResponsesWireUsage(usage) : toOpenAiWireUsage(usage);
    }
    const headers = servedHeaders(result, usage?.cost?.total_cost);
    if (call.plugins?.headers) Object.assign(headers, call.plugins.headers);
    return { body, headers, usage, binary: parsed.binary };
  }

  /**
   * A unary answer a plugin gave (a cache hit), as the caller gets it: the served headers of its provider and model
   * plus the answer's, priced at zero.
   */
  answered(
    call: InferenceCall,
    result: RoutedResult,
    answer: Extract<PluginAnswer, { type: 'unary' }>,
    usage: Usage | undefined,
    keepOutput: ((body: Json) => void) | undefined,
  ): ServedAnswer {
    const body = answer.body;
    if (usage && !MEDIA_KINDS.has(call.kind)) {
      body.usage = call.kind === 'responses' ? toResponsesWireUsage(usage) : toOpenAiWireUsage(usage);
    }
    keepOutput?.(body);
    const headers = servedHeaders(result, 0);
    Object.assign(headers, call.plugins?.headers, answer.headers);
    return { body, headers, usage };
  }

  /** A provider's stream, relayed in the caller's framing; resolves with how it ended once the last byte is written. */
  async stream(
    call: InferenceCall,
    result: RoutedResult,
    request: FastifyRequest,
    reply: FastifyReply,
    abort: Cancellation,
    started: number,
    tap: StreamTap,
    native?: NativeStreamEncoder,
  ): Promise<StreamEnd> {
    const { upstream, decoder } = result.stream!;
    const head = servedHeaders(result);
    if (call.plugins?.headers) Object.assign(head, call.plugins.headers);
    if (native) head['content-type'] = native.contentType;
    // The head goes out with the first event (one write instead of two); the routing headers still precede any byte.
    const raw = startSse(request, reply, head, { flush: false });
    // A client that goes away aborts `abort` (the controller listens for it); undici, which holds the same signal,
    // then destroys the upstream body with the abort reason, which ends the loop below.
    const untrack = this.streams.add(abort);
    const writer = new StreamWriter(call, result, raw, tap, native);
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
      if (!abort.aborted) failure = streamFailure(err);
    } finally {
      untrack();
    }
    if (failure && !raw.writableEnded) writer.error(failure, request);
    writer.end();
    upstream.body.destroy();
    return writer.ended(abort.aborted, failure);
  }

  /**
   * A stream a plugin gave (a cache hit), written as a provider's would be: one group of canonical outputs per write
   * (the original chunking), through the same writer (the caller's framing, native encoders).
   */
  async replay(
    call: InferenceCall,
    result: RoutedResult,
    answer: Extract<PluginAnswer, { type: 'stream' }>,
    request: FastifyRequest,
    reply: FastifyReply,
    abort: Cancellation,
    started: number,
    tap: StreamTap,
    native?: NativeStreamEncoder,
  ): Promise<StreamEnd> {
    // A Responses stream that was bridged to chat replays chat chunks: the writer bridges them again.
    const head = servedHeaders(result, 0);
    Object.assign(head, call.plugins?.headers, answer.headers);
    if (native) head['content-type'] = native.contentType;
    const raw = startSse(request, reply, head, { flush: false });
    const writer = new StreamWriter(call, result, raw, tap, native);
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
    writer.end();
    return writer.ended(abort.aborted, failure);
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
   * Events decoded from one upstream read, sent in one write by the core's writer (coalesced per event-loop turn,
   * keep-alives on SSE text).
   */
  private readonly sse: SseWriter;
  /** The last chunk when it was relayed as sent (parsed only for the ids of the closing usage chunk). */
  private lastRaw: string | undefined;
  /** The provider's usage-only chunk (parsed for its usage), whose ids the closing usage chunk takes. */
  private usageChunk: Json | undefined;
  private readonly plugins: PluginRun | undefined;
  private readonly see: ((output: StreamOutput) => void) | undefined;

  constructor(
    private readonly call: InferenceCall,
    private readonly result: RoutedResult,
    raw: ReturnType<typeof startSse>,
    private readonly tap: StreamTap,
    private readonly native: NativeStreamEncoder | undefined,
  ) {
    this.includeUsage = wantsUsageChunk(call.body);
    this.see = tap.see;
    this.plugins = call.plugins?.watchesChunks ? call.plugins : undefined;
    this.bridge = result.bridged ? new ChatToResponsesStream(call.body) : undefined;
    // Keep-alive comments only where the framing is SSE text (not Bedrock's binary event stream, not GenAI's JSON array).
    const sseText = native === undefined || native.contentType.startsWith('text/event-stream');
    this.sse = new SseWriter(raw, { keepAliveMs: sseText ? undefined : false });
  }

  /** Writes the outputs; returns the failure when one of them is a provider error. */
  write(outputs: StreamOutput[]): GatewayException | undefined {
    // The plugins' chunk hooks (and a recording of the stream), only when some enabled plugin has them.
    if (this.plugins !== undefined) outputs = this.plugins.chunks(outputs);
    for (const output of outputs) {
      this.see?.(output);
      switch (output.kind) {
        case 'chunk': {
          if (output.usage) this.usage = this.tap.price(output.usage);
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
            this.sse.text(`data: ${relayed}\n\n`);
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
          this.sse.text(`data: ${JSON.stringify(chunk)}\n\n`);
          break;
        }
        case 'event': {
          const data = output.data;
          if (output.usage) {
            this.usage = this.tap.price(output.usage);
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

  /** How the stream ended: 499 when the client went away, else the failure's status or 200. */
  ended(cancelled: boolean, failure: GatewayException | undefined): StreamEnd {
    const status = cancelled ? 499 : failure ? failure.status : 200;
    return { status, usage: this.usage, ttftMs: this.ttftMs, failure, cancelled };
  }

  /** Sends what is left with the end of the response (one write). */
  end(): void {
    this.sse.end();
  }

  /** Sends what the last upstream read produced once this turn of the event loop is over (the core writer's flush). */
  flush(): void {
    this.sse.flush();
  }

  /** A native encoder's frames: text as SSE text, binary frames as frames. */
  private append(frames: NativeFrame[]): void {
    for (const frame of frames) {
      if (typeof frame === 'string') this.sse.text(frame);
      else this.sse.frame(frame);
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
      this.sse.text(`data: ${JSON.stringify(usageChunk)}\n\n`);
    }
    this.sse.text('data: [DONE]\n\n');
  }

  /** The stream's last event after a failure: the GatewayError, in the framing the caller's SDK reads as an error. */
  error(err: GatewayException, request: FastifyRequest): void {
    const view = toErrorResponse(err, request.errorFields);
    if (this.native) {
      this.append(this.native.error(view));
      return;
    }
    const data = JSON.stringify(view.body);
    this.sse.text(this.call.kind === 'responses' ? `event: error\ndata: ${data}\n\n` : `data: ${data}\n\n`);
  }

  /** A typed event; OpenAI's speech events carry their type in the data only, without an `event:` line. */
  private event(event: string, data: object): void {
    const name = this.call.kind === 'speech' ? '' : `event: ${event}\n`;
    this.sse.text(`${name}data: ${JSON.stringify(data)}\n\n`);
  }
}
