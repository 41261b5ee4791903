import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/**
 * Sends bytes exactly as given over a plain TCP socket and reads the answer until the server closes or the response
 * is complete: for requests fetch would refuse or normalise (bad percent-encoding, oversize request lines).
 */
export function rawRequest(baseUrl: string, request: string): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return;
      const [statusLine, ...headerLines] = raw.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const text = raw.slice(split + 4);
      const length = Number(headers['content-length'] ?? NaN);
      if (Number.isFinite(length) && Buffer.byteLength(text) < length) return;
      settled = true;
      socket.destroy();
      let body: unknown = text;
      if ((headers['content-type'] ?? '').includes('json') && text) body = JSON.parse(text);
      resolve({ status: Number(statusLine?.split(' ')[1]), headers, text, body });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      finish();
    });
    socket.on('end', finish);
    socket.on('close', () => {
      finish();
      if (!settled) reject(new Error(`connection closed without a complete response: ${chunks.length} chunks`));
    });
    socket.on('error', (err) => {
      if (!settled && chunks.length === 0) reject(err);
    });
    socket.write(request);
  });
}

/** What `uploadUntilAnswered` saw: the answer, and how many body bytes the client had written when it came. */
export interface UploadOutcome {
  status: number;
  body: any;
  /** Body bytes handed to the socket before the answer arrived (the kernel may still hold some of them). */
  bodyBytesWritten: number;
}

/**
 * Sends `head` (request line and headers, ending with the blank line) and then `bodyBytes` of body in 64 KiB chunks,
 * as fast as the socket takes them, until the server answers or closes: an upload a server may refuse before reading
 * it. Stops writing at the first byte of the answer.
 */
export function uploadUntilAnswered(baseUrl: string, head: string, bodyBytes: number): Promise<UploadOutcome> {
  const { hostname, port } = new URL(baseUrl);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    let written = 0;
    let answered = false;
    const pump = () => {
      while (!answered && written < bodyBytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bodyBytes - written));
        written += piece.length;
        if (!socket.write(piece)) return socket.once('drain', pump);
      }
    };
    const settle = () => {
      const raw = Buffer.concat(received).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no answer before the connection closed (${written} bytes written)`));
      const text = raw.slice(split + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      resolve({ status: Number(raw.slice(0, split).split(' ')[1]), body, bodyBytesWritten: written });
    };
    socket.on('data', (data: Buffer) => {
      answered = true;
      received.push(data);
      const raw = Buffer.concat(received).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const length = /content-length:\s*(\d+)/i.exec(raw.slice(0, Math.max(split, 0)))?.[1];
      if (split >= 0 && length !== undefined && Buffer.byteLength(raw.slice(split + 4)) >= Number(length)) {
        socket.destroy();
      }
    });
    socket.on('close', settle);
    socket.on('error', () => undefined); // a reset after the answer: the answer is what counts
    socket.write(head);
    pump();
  });
}
