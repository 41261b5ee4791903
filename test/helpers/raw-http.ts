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
