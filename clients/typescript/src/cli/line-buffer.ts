/**
 * Lines for a stream, written a batch at a time: at most every `intervalMs`, and whatever is left on `flush()`. A
 * pipe write is a system call (and wakes the reader), so an apply that reports a thousand objects one line each
 * spent more CPU writing to stdout than building its requests.
 */
export class LineBuffer {
  private lines: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly intervalMs = 100,
  ) {}

  write(line: string): void {
    this.lines.push(line);
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Writes what is buffered now (before anything else is written to the terminal, and at the end). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.lines.length) return;
    this.stream.write(`${this.lines.join('\n')}\n`);
    this.lines = [];
  }
}
