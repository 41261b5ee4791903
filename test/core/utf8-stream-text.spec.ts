import { describe, expect, it } from 'vitest';
import { Utf8StreamText } from '../../src/core/http/utf8-stream-text.js';

/** The text of `bytes` read in pieces cut at `cuts`, the way a relay reads a stream. */
function readInPieces(bytes: Buffer, cuts: number[]): string {
  const text = new Utf8StreamText();
  let out = '';
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    out += text.write(bytes.subarray(from, at));
    from = at;
  }
  return out + text.end();
}

describe('Utf8StreamText', () => {
  const sample = Buffer.from('data: {"content":"héllo → 世界 🎉"}\n\n', 'utf8');

  it('reads the same text as TextDecoder wherever the chunks are cut, characters split between chunks included', () => {
    const expected = new TextDecoder().decode(sample);
    for (let at = 0; at <= sample.length; at++) {
      expect(readInPieces(sample, [at])).toBe(expected);
      expect(readInPieces(sample, [at, Math.min(sample.length, at + 1), Math.min(sample.length, at + 2)])).toBe(
        expected,
      );
    }
  });

  it('drops a leading byte order mark only, as TextDecoder does, even when it arrives byte by byte', () => {
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), sample, Buffer.from([0xef, 0xbb, 0xbf])]);
    const expected = new TextDecoder().decode(marked);
    expect(expected.startsWith('\ufeff')).toBe(false);
    expect(expected.endsWith('\ufeff')).toBe(true);
    expect(readInPieces(marked, [1, 2, 3])).toBe(expected);
    expect(readInPieces(marked, [])).toBe(expected);
  });

  it('turns invalid bytes and a character cut short at the end into U+FFFD, as TextDecoder does', () => {
    const broken = Buffer.concat([Buffer.from('ok '), Buffer.from([0xff]), Buffer.from(' 世', 'utf8').subarray(0, 3)]);
    const expected = new TextDecoder().decode(broken);
    expect(expected).toBe('ok \ufffd \ufffd');
    expect(readInPieces(broken, [2, 4])).toBe(expected);
  });
});
