import { bearer, type ErrorSpec, type Family, jsonReply, type SimRequest } from '../family.js';
import { anthropicFamily } from './anthropic.js';
import { openaiFamily } from './openai.js';
import { sigv4Problem } from './mantle-sigv4.js';

const SERVICE = 'bedrock-mantle';
const isClaude = (req: SimRequest) => req.sub.startsWith('/anthropic/');

/**
 * `/mantle` is a Bedrock Mantle regional host: `/v1/…` OpenAI-compatible, `/anthropic/v1/messages` Anthropic
 * Messages (which also needs `anthropic-version`). Auth is a Bedrock API key as Bearer, or SigV4 for service
 * `bedrock-mantle` with `MANTLE_TEST_CREDENTIALS`, verified (403 `InvalidSignatureException` otherwise). `key` is the
 * Bearer, or the access key id of a signed request.
 */
export const mantleFamily: Family = {
  name: 'mantle',

  authenticate(req) {
    const auth = req.headers.authorization;
    if (typeof auth === 'string' && auth.startsWith('AWS4-HMAC-SHA256 ')) {
      const problem = sigv4Problem(req, SERVICE);
      if (problem) return jsonReply(403, { message: problem }, { 'x-amzn-errortype': 'InvalidSignatureException' });
      req.key = /Credential=([^/]+)\//.exec(auth)?.[1];
    } else {
      req.key = bearer(req.headers);
      if (req.key === undefined) {
        return jsonReply(
          401,
          { message: 'Authorization header is missing' },
          { 'x-amzn-errortype': 'UnauthorizedException' },
        );
      }
    }
    if (isClaude(req) && req.headers['anthropic-version'] === undefined) {
      return anthropicFamily.authenticate(req);
    }
    return undefined;
  },

  route(req) {
    if (isClaude(req)) return anthropicFamily.route(req);
    if (req.sub.startsWith('/v1/')) return openaiFamily.route(req);
    return jsonReply(404, { message: 'Not Found' });
  },

  error(req, spec: ErrorSpec) {
    return isClaude(req) ? anthropicFamily.error(req, spec) : openaiFamily.error(req, spec);
  },
};
