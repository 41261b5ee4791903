/** One Server-Sent Event as read off the wire: its `event:` name (if any) and its joined `data:` lines. */
export interface SseMessage {
  event?: string;
  data: string;
}

/** One whole event block as received, for a relay that passes events on: its lines (comments and ids kept) and data. */
export interface SseBlock {
  /** The block's lines joined by `\n`, without the blank line that ended it. */
  raw: string;
  /** The joined `data:` lines; absent for a block of comments or fields only. */
  data?: string;
}

/**
 * The one incremental SSE parser (WHATWG event stream) of the gateway: accepts any split of the text, LF, CR or CRLF
 * line ends, comments and multi-line data. Provider adapters feed it upstream text and interpret the messages
 * (`push`); the A2A relay passes whole blocks on as they arrive (`pushBlocks`). One instance serves one of the two.
 */
export class SseParser {
  private buffer = '';
  private event: string | undefined;
  private data: string[] = [];
  /** The current block's lines (block mode only). */
  private rawLines: string[] = [];

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
    start = this.lines((line) => this.line(line, out));
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /**
   * Calls `onLine` for each complete line of the buffer (LF, CR or CRLF) and returns where the unfinished tail starts.
   */
  private lines(onLine: (line: string) => void): number {
    let start = 0;
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
      onLine(this.buffer.slice(start, end));
      start = next;
    }
    return start;
  }

  /** Whole blocks as they complete, for a relay: each block's lines as received and its data. */
  pushBlocks(text: string): SseBlock[] {
    this.buffer += text;
    const out: SseBlock[] = [];
    this.buffer = this.buffer.slice(this.lines((line) => this.blockLine(line, out)));
    return out;
  }

  /** The unterminated last block of a stream that ended without its blank line. */
  endBlocks(): SseBlock[] {
    const out: SseBlock[] = [];
    if (this.buffer) this.blockLine(this.buffer, out);
    this.buffer = '';
    this.blockLine('', out);
    return out;
  }

  private blockLine(line: string, out: SseBlock[]): void {
    const messages: SseMessage[] = [];
    this.line(line, messages);
    if (line !== '') {
      this.rawLines.push(line);
      return;
    }
    if (this.rawLines.length === 0) return;
    const raw = this.rawLines.join('\n');
    this.rawLines = [];
    out.push(messages[0] ? { raw, data: messages[0].data } : { raw });
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
