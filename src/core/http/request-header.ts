import type { FastifyRequest } from 'fastify';

/** A request header's first value, trimmed; undefined when absent or blank. */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}
