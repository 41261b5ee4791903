import type { GatewayPlugin, PluginRequestShape } from '../registry/gateway-plugin.js';
import { repairJson } from './json-repair.js';

/** Longest repaired JSON written into the request's plugin_logs. */
const MAX_LOGGED = 4096;
const CONTENT = 'content';

/** Whether the request asked for JSON (`response_format` json_object or json_schema) and streams. */
function jsonMode(request: PluginRequestShape): boolean {
  if (!request.stream) return false;
  const format = request.body.response_format as { type?: unknown } | undefined;
  return format?.type === 'json_object' || format?.type === 'json_schema';
}

interface TextOutput {
  kind?: string;
  chunk?: { choices?: Array<{ delta?: { content?: unknown }; text?: unknown }> };
  event?: string;
  data?: { delta?: unknown };
}

/** The text a canonical stream output adds to the answer (chat and completions chunks, Responses text deltas). */
function textOf(output: unknown): string | undefined {
  const o = output as TextOutput;
  let text: unknown;
  if (o.kind === 'chunk') {
    const choice = o.chunk?.choices?.[0];
    text = choice?.delta?.content ?? choice?.text;
  } else if (o.kind === 'event' && o.event === 'response.output_text.delta') {
    text = o.data?.delta;
  }
  return typeof text === 'string' ? text : undefined;
}

/**
 * `jsonparser` (off by default): for streamed JSON mode, keeps the streamed content and, at the stream's end, checks
 * that it parses; content cut off mid-way is repaired as far as possible and the repaired JSON is written to the
 * request's `plugin_logs` (the caller's stream itself is not changed: its chunks already left).
 */
export const jsonParserPlugin: GatewayPlugin = {
  name: 'jsonparser',
  defaults: { enabled: false, order: 40 },
  // Only streamed JSON mode: any other request leaves the plugin out of its run.
  appliesTo: jsonMode,
  onStreamChunk(request, output) {
    const text = textOf(output);
    if (text) request.state.set(CONTENT, ((request.state.get(CONTENT) as string | undefined) ?? '') + text);
    return undefined;
  },
  onStreamEnd(request) {
    const content = request.state.get(CONTENT);
    if (typeof content !== 'string' || content.trim() === '') return;
    try {
      JSON.parse(content);
      request.log('debug', 'streamed JSON is complete');
      return;
    } catch {
      // Repaired below.
    }
    const repaired = repairJson(content);
    if (repaired === undefined) {
      request.log('warn', 'streamed JSON is incomplete and could not be repaired');
      return;
    }
    request.log('warn', `streamed JSON was incomplete; repaired: ${repaired.slice(0, MAX_LOGGED)}`);
  },
};
