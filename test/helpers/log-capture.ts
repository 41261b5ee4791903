import { Writable } from 'node:stream';
import { recordLogLines } from './evidence.js';

/** A pino destination that keeps every line, so tests can assert on logs (and on what they never contain). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    const lines = chunk
      .toString('utf8')
      .split('\n')
      .filter((line) => line);
    this.lines.push(...lines);
    recordLogLines(lines);
    if (process.env.TEST_LOGS) process.stdout.write(chunk);
    callback();
  }

  text(): string {
    return this.lines.join('\n');
  }

  records(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}
