import type { FastifyInstance } from 'fastify';
import { GatewayException } from '../errors/gateway.exception.js';
import { MAX_JSON_DEPTH } from './limits.js';
import {
  acceptsMediaType,
  declaredMediaTypes,
  mediaTypeOf,
  registerMediaTypeGate,
  unsupportedMediaType,
} from './media-types.js';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the quote closing the string opened at `open`, or -1 when the string never ends. */
function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end >= 0) {
    let k = end - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((end - k) % 2 === 1) return end; // an even number of backslashes before it: the quote is not escaped
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * Whether `text` nests arrays and objects deeper than `max`, counting brackets outside strings, before JSON.parse
 * builds anything. Strings are skipped with indexOf, so the pass costs a fraction of the parse (1.6 µs against 7 µs
 * for a 2.7 KB chat request; 6 ms against 29 ms for 9 MB). Malformed text is left to JSON.parse.
 */
export function exceedsJsonDepth(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * Replaces Fastify's body parsers. JSON (`application/json` and every `+json` type) is the default of every route:
 * malformed JSON and nesting deeper than MAX_JSON_DEPTH are a 400 `invalid_json` GatewayError (Nest would otherwise
 * turn the parser's SyntaxError into a generic 400, and deep nesting overflowed the stack). An empty body is treated as
 * no body. Prototype poisoning is refused. Any other media type goes through the media-type gate (415 unless the route
 * declared it).
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  const strictParser = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string' },
    (request, body: string, done) => {
      if (body.trim() === '') return done(null, undefined);
      const declared = declaredMediaTypes(request);
      if (declared && !acceptsMediaType(declared, mediaTypeOf(request))) {
        return done(unsupportedMediaType(declared), undefined);
      }
      if (exceedsJsonDepth(body, MAX_JSON_DEPTH)) {
        return done(
          new GatewayException(
            400,
            'invalid_json',
            `Request body nests arrays and objects deeper than the limit of ${MAX_JSON_DEPTH} levels`,
          ),
          undefined,
        );
      }
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
  registerMediaTypeGate(fastify);
}
