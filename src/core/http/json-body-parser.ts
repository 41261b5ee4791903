import type { FastifyInstance } from 'fastify';
import { GatewayException } from '../errors/gateway.exception.js';

/**
 * Replaces Fastify's JSON parser so malformed JSON is a 400 `invalid_json` GatewayError (Nest would otherwise turn
 * the parser's SyntaxError into a generic 400). An empty body is treated as no body. Prototype poisoning is refused.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  const strictParser = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser(['application/json']);
  fastify.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string' },
    (request, body: string, done) => {
      if (body.trim() === '') return done(null, undefined);
      void strictParser(request, body, (err, value) => {
        if (err)
          return done(
            new GatewayException(400, 'invalid_json', `Request body is not valid JSON: ${err.message}`),
            undefined,
          );
        done(null, value);
      });
    },
  );
}
