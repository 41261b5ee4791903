/**
 * Progress on stderr: a redrawn bar on a terminal, plain lines otherwise (at most one every `plainEveryMs`, and the
 * last), so logs of CI jobs stay readable. Stdout is left to the data.
 */
export class Progress {
  private readonly tty: boolean;
  private lastPlain = 0;
  private drawn = false;

  constructor(
    private readonly label: string,
    private readonly options: { enabled?: boolean; tty?: boolean; plainEveryMs?: number } = {},
  ) {
    this.tty = options.tty ?? !!process.stderr.isTTY;
  }

  update(done: number, total?: number, note = ''): void {
    if (this.options.enabled === false) return;
    const share = total ? Math.min(1, done / total) : undefined;
    const counts = `${done.toLocaleString('en-US')}${total !== undefined ? `/${total.toLocaleString('en-US')}` : ''}`;
    if (this.tty) {
      const width = 30;
      const bar =
        share === undefined
          ? ''
          : `[${'#'.repeat(Math.round(share * width)).padEnd(width, '.')}] ${Math.floor(share * 100)}% `;
      process.stderr.write(`\r\x1b[2K${this.label} ${bar}${counts}${note ? ` ${note}` : ''}`);
      this.drawn = true;
      return;
    }
    const now = Date.now();
    if (now - this.lastPlain < (this.options.plainEveryMs ?? 1000)) return;
    this.lastPlain = now;
    process.stderr.write(
      `${this.label}: ${counts}${share !== undefined ? ` (${Math.floor(share * 100)}%)` : ''}${note ? ` ${note}` : ''}\n`,
    );
  }

  /** The final state, always written (a line on both kinds of stderr). */
  done(message: string): void {
    if (this.options.enabled === false) return;
    if (this.tty && this.drawn) process.stderr.write('\r\x1b[2K');
    process.stderr.write(`${this.label}: ${message}\n`);
  }
}

/** Whether a command shows progress: `--progress` forces it, `--no-progress` turns it off, else on a terminal. */
export function progressEnabled(options: Record<string, unknown>): boolean {
  if (options['no-progress']) return false;
  if (options.progress) return true;
  return !!process.stderr.isTTY;
}
