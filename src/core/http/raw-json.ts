import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Writes a JSON answer straight to the response: one `writeHead` and one `end`, past Fastify's send pipeline (its
 * onSend hooks and payload checks), which costs a measurable share of a proxied request. Headers the reply already
 * holds (`x-request-id`, CORS and security headers copied by their hooks) go out with it; onResponse hooks (access
 * log, metrics) still run when the response finishes. For handlers that own the response (`@Res()`).
 */
export function sendRawJson(
  reply: FastifyReply,
  status: number,
  json: string,
  headers: Record<string, string> = {},
): void {
  reply.hijack();
  const head = reply.getHeaders() as OutgoingHttpHeaders;
  head['content-type'] = 'application/json; charset=utf-8';
  head['content-length'] = Buffer.byteLength(json);
  for (const name in headers) head[name] = headers[name];
  reply.raw.writeHead(status, head);
  reply.raw.end(json);
}
