/**
 * Fixed transport limits (not configuration: no deployment needs to move them, and each protects code further in).
 */

/**
 * Deepest nesting of arrays and objects a JSON body may have. Far above any real payload (an A2A message with
 * structured parts and metadata stays under 15), far below what overflows the stack of the recursive walkers behind
 * the parser (class-transformer, class-validator, our own tree walks), which 5,000 levels in 25 KB did.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Longest value of one path parameter (Fastify's `maxParamLength`, made explicit): names and ids are far shorter; a
 * longer one is answered 414 `uri_too_long`. The `…/rest/*` wildcard is not a parameter and has no such limit.
 */
export const MAX_PATH_PARAM_CHARS = 100;
