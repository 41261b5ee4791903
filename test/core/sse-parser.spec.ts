import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from '../../src/core/http/sse/sse-parser.js';

/** The WHATWG event-stream interpretation of a whole text, line by line (the decoder's reference). */
function reference(text: string): SseMessage[] {
  const out: SseMessage[] = [];
  let event: string | undefined;
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0 || event !== undefined) {
      out.push(event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') });
    }
    event = undefined;
    data = [];
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      dispatch();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }
  dispatch();
  return out;
}

function decode(pieces: string[]): SseMessage[] {
  const decoder = new SseParser();
  const out: SseMessage[] = [];
  for (const piece of pieces) out.push(...decoder.push(piece));
  out.push(...decoder.end());
  return out;
}

const STREAMS: Record<string, string> = {
  'openai chunks': 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n',
  'no space after the colon, an empty data line, a bare field name':
    'data:{"x":1}\n\ndata:\n\ndata\ndata: y\n\ndata:  two spaces\n\n',
  'multi-line data and named events': 'event: message_start\ndata: {"m":1}\ndata: {"n":2}\n\nevent: ping\n\n',
  'comments, keep-alives and fields that are ignored': ': keep-alive\n\nid: 7\nretry: 100\ndata: z\n\n:\n\n',
  'field names that only start like data': 'datax: no\ndata2: no\nDATA: no\ndata: yes\n\n',
  'CRLF and CR line ends': 'data: a\r\n\r\nevent: e\rdata: b\r\rdata: c\r\n\n',
  'an unterminated last event': 'data: first\n\ndata: cut sh',
};

describe('SseParser', () => {
  for (const [name, text] of Object.entries(STREAMS)) {
    it(`${name}: the same messages whatever the split`, () => {
      const expected = reference(text);
      expect(expected.length).toBeGreaterThan(0);
      expect(decode([text])).toEqual(expected);
      for (let cut = 1; cut < text.length; cut++) {
        expect(decode([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual(expected);
      }
      expect(decode([...text]), 'one character at a time').toEqual(expected);
    });
  }

  it('data values are the text after `data:` and one optional space', () => {
    expect(decode(['data:x\n\ndata: x\n\ndata:  x\n\ndata:\n\n'])).toEqual([
      { data: 'x' },
      { data: 'x' },
      { data: ' x' },
      { data: '' },
    ]);
  });
});

describe('SseParser blocks (the A2A relay)', () => {
  it('passes each block on as received, comments and ids kept, with its data; any split, CRLF folded', () => {
    const text = ': hello\r\n\r\nid: 7\r\ndata: {"a":\r\ndata: 1}\r\n\r\nevent: error\ndata: x\n\ndata: tail';
    for (const size of [1, 3, 7, text.length]) {
      const parser = new SseParser();
      const blocks = [];
      for (let i = 0; i < text.length; i += size) blocks.push(...parser.pushBlocks(text.slice(i, i + size)));
      blocks.push(...parser.endBlocks());
      expect(blocks).toEqual([
        { raw: ': hello' },
        { raw: 'id: 7\ndata: {"a":\ndata: 1}', data: '{"a":\n1}' },
        { raw: 'event: error\ndata: x', data: 'x' },
        { raw: 'data: tail', data: 'tail' },
      ]);
    }
  });
});
