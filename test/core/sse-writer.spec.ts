import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseWriter } from '../../src/core/http/sse/sse-writer.js';

/** Serves one response through the writer and returns what a client read, with the number of socket reads. */
async function served(write: (writer: SseWriter, end: () => void) => void, keepAliveMs?: number | false) {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    const writer = new SseWriter(res, { keepAliveMs });
    write(writer, () => writer.end());
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ text: string; reads: number }>((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let text = '';
      let reads = 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        reads++;
      });
      res.on('end', () => resolve({ text, reads }));
    })
      .on('error', reject)
      .end();
  });
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

describe('the core SSE writer, over a real socket', () => {
  it('coalesces the events of one turn into one write and sends the rest with the end', async () => {
    const { text } = await served((writer, end) => {
      writer.text('data: 1\n\n');
      writer.text('data: 2\n\n');
      writer.flush();
      setTimeout(() => {
        writer.text('data: 3\n\n');
        end();
      }, 20);
    });
    expect(text).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');
  });

  it('sends a keep-alive comment while the stream is silent, and none after the end', async () => {
    const { text } = await served((writer, end) => {
      writer.text('data: first\n\n');
      writer.flush();
      setTimeout(end, 130);
    }, 40);
    expect(text.startsWith('data: first\n\n')).toBe(true);
    const pings = text.split(': keep-alive\n\n').length - 1;
    expect(pings).toBeGreaterThanOrEqual(2);
    expect(text.replace(/: keep-alive\n\n/g, '')).toBe('data: first\n\n');
  });

  it('sends no keep-alive where the framing is not SSE text', async () => {
    const { text } = await served((writer, end) => {
      writer.frame(Buffer.from('[{"a":1}'));
      writer.flush();
      setTimeout(() => {
        writer.frame(Buffer.from(']'));
        end();
      }, 100);
    }, false);
    expect(text).toBe('[{"a":1}]');
  });
});
