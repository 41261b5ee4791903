import { GatewayException } from '../../errors/gateway.exception.js';

/** The error code on `err` or on the first cause that has one (undici wraps socket errors). */
function codeOf(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The one classifier of a failure reading an upstream's body after a relayed stream started (the status line is
 * already sent, so it becomes the stream's last event), the same on every plane (inference, A2A): a body silent past
 * its read timeout is 504 `upstream_timeout` (`provider_timeout`), as a silence before the headers is; a broken or
 * reset connection is 502 `upstream_error` (`provider_connection_failed`), never a gateway 500. A GatewayException
 * (a decoder's or the outbound client's own) is kept as it is. docs/errors.md lists both.
 */
export function streamFailure(err: unknown): GatewayException {
  if (err instanceof GatewayException) return err;
  const code = codeOf(err);
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new GatewayException(504, 'upstream_timeout', "The upstream's stream stalled past its read timeout", {
      reason: 'provider_timeout',
      cause: err,
    });
  }
  return new GatewayException(
    502,
    'upstream_error',
    `The upstream's stream broke off${code === undefined ? '' : ` (${code})`}`,
    { reason: 'provider_connection_failed', cause: err },
  );
}
