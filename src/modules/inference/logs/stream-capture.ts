import type { Json, StreamOutput } from '../providers/shared/provider-adapter.js';

interface MergedToolCall {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments: string };
}

interface MergedChoice {
  content: string;
  reasoning: string;
  refusal: string;
  tool_calls: Map<number, MergedToolCall>;
  finish_reason?: string;
}

/**
 * Collects a stream's events for its log row. While the stream runs it only keeps references (a relayed chunk's text
 * as sent, never parsed here); `result()` merges them once the stream is over: content, reasoning and refusal deltas
 * concatenated, tool calls merged by index with their argument fragments appended, the finish reason from the last
 * chunk that has one. A Responses stream keeps `response.completed`'s output. Beyond `maxChars` of events nothing
 * more is kept and the output is marked truncated.
 */
export class StreamCapture {
  private readonly items: Array<string | Json> = [];
  private completedResponse: Json | undefined;
  private textDeltas = '';
  private chars = 0;
  private truncated = false;

  constructor(private readonly maxChars: number) {}

  add(output: StreamOutput): void {
    if (this.truncated) return;
    if (output.kind === 'chunk') {
      const item = output.raw ?? output.chunk;
      this.chars += typeof item === 'string' ? item.length : 200;
      this.items.push(item);
    } else if (output.kind === 'event') {
      if (output.event === 'response.completed' || output.event === 'response.incomplete') {
        this.completedResponse = output.data.response as Json | undefined;
      } else if (output.event === 'response.output_text.delta' && typeof output.data.delta === 'string') {
        this.textDeltas += output.data.delta;
        this.chars += output.data.delta.length;
      }
    }
    if (this.chars > this.maxChars) this.truncated = true;
  }

  /** The merged output and stop reason. */
  result(): { output: unknown; stopReason: string | null } {
    if (this.completedResponse) {
      const incomplete = (this.completedResponse.incomplete_details as Json | undefined)?.reason;
      const status = this.completedResponse.status;
      return {
        output: this.completedResponse.output ?? null,
        stopReason: typeof incomplete === 'string' ? incomplete : typeof status === 'string' ? status : null,
      };
    }
    if (this.items.length === 0) {
      return { output: this.textDeltas ? { text: this.textDeltas, ...this.mark() } : null, stopReason: null };
    }
    const choices = new Map<number, MergedChoice>();
    let completionText = false;
    for (const item of this.items) {
      let chunk: Json;
      try {
        chunk = typeof item === 'string' ? (JSON.parse(item) as Json) : item;
      } catch {
        continue;
      }
      if (!Array.isArray(chunk.choices)) continue;
      for (const c of chunk.choices as Json[]) {
        const index = typeof c.index === 'number' ? c.index : 0;
        let merged = choices.get(index);
        if (!merged) {
          merged = { content: '', reasoning: '', refusal: '', tool_calls: new Map() };
          choices.set(index, merged);
        }
        if (typeof c.finish_reason === 'string') merged.finish_reason = c.finish_reason;
        if (typeof c.text === 'string') {
          completionText = true;
          merged.content += c.text;
        }
        const delta = c.delta as Json | undefined;
        if (!delta) continue;
        if (typeof delta.content === 'string') merged.content += delta.content;
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === 'string') merged.reasoning += reasoning;
        if (typeof delta.refusal === 'string') merged.refusal += delta.refusal;
        if (Array.isArray(delta.tool_calls)) {
          for (const t of delta.tool_calls as Json[]) this.mergeToolCall(merged, t);
        }
      }
    }
    const outputs = [...choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, c]) => (completionText ? { text: c.content } : this.message(c)));
    const first = [...choices.values()][0];
    return {
      output: outputs.length === 1 ? { ...outputs[0], ...this.mark() } : outputs,
      stopReason: first?.finish_reason ?? null,
    };
  }

  private mark(): Json {
    return this.truncated ? { truncated: true } : {};
  }

  private mergeToolCall(choice: MergedChoice, fragment: Json): void {
    const index = typeof fragment.index === 'number' ? fragment.index : choice.tool_calls.size;
    let call = choice.tool_calls.get(index);
    if (!call) {
      call = { index, function: { arguments: '' } };
      choice.tool_calls.set(index, call);
    }
    if (typeof fragment.id === 'string') call.id = fragment.id;
    if (typeof fragment.type === 'string') call.type = fragment.type;
    const fn = fragment.function as Json | undefined;
    if (typeof fn?.name === 'string') call.function.name = (call.function.name ?? '') + fn.name;
    if (typeof fn?.arguments === 'string') call.function.arguments += fn.arguments;
  }

  private message(c: MergedChoice): Json {
    const message: Json = { role: 'assistant', content: c.content || null };
    if (c.reasoning) message.reasoning = c.reasoning;
    if (c.refusal) message.refusal = c.refusal;
    if (c.tool_calls.size > 0) {
      message.tool_calls = [...c.tool_calls.values()]
        .sort((a, b) => a.index - b.index)
        .map(({ id, type, function: fn }) => ({ id, type: type ?? 'function', function: fn }));
    }
    return message;
  }
}
