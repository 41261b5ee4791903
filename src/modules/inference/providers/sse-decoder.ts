/** One Server-Sent Event as read off the wire: its `event:` name (if any) and its joined `data:` lines. */
export interface SseMessage {
  event?: string;
  data: string;
}

/**
 * Incremental SSE framing (WHATWG event stream): accepts any split of the text, LF, CR or CRLF line ends, comments
 * and multi-line data. Adapters feed it upstream text and interpret the messages.
 */
export class SseDecoder {
  private buffer = '';
  private event: string | undefined;
  private data: string[] = [];

  push(text: string): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    if (!this.buffer.includes('\r')) {
      // LF-only framing (most providers): native line search instead of a character loop.
      // A `data:` line's value is cut out of the buffer directly: one string per line instead of two or three.
      const buffer = this.buffer;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n', start)) {
        if (end > start + 5 && buffer.startsWith('data:', start)) {
          this.data.push(buffer.slice(buffer.charCodeAt(start + 5) === 32 ? start + 6 : start + 5, end));
        } else {
          this.line(buffer.slice(start, end), out);
        }
        start = end + 1;
      }
      this.buffer = this.buffer.slice(start);
      return out;
    }
    for (;;) {
      let end = -1;
      let next = -1;
      for (let i = start; i < this.buffer.length; i++) {
        const c = this.buffer.charCodeAt(i);
        if (c === 10) {
          end = i;
          next = i + 1;
          break;
        }
        if (c === 13) {
          // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
          if (i + 1 >= this.buffer.length) break;
          end = i;
          next = this.buffer.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
          break;
        }
      }
      if (end < 0) break;
      this.line(this.buffer.slice(start, end), out);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** Flushes an unterminated last message (a stream that ended without its blank line). */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    if (this.buffer) this.line(this.buffer, out);
    this.buffer = '';
    this.line('', out);
    return out;
  }

  private joined(): string {
    return this.data.length === 1 ? this.data[0]! : this.data.join('\n');
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.data.length > 0 || this.event !== undefined) {
        out.push(this.event === undefined ? { data: this.joined() } : { event: this.event, data: this.joined() });
      }
      this.event = undefined;
      this.data = [];
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }
}
