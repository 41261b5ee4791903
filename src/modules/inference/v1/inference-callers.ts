/**
 * The access of every inference route: a virtual key, or a provider key passed through (`inference.allow_direct_keys`),
 * or none where `inference.require_virtual_key` is off. The data-plane authenticator decides which before the body is
 * read and puts it on the request (`request.credential`).
 */
export const INFERENCE_CALLERS = { optional: true, directKeys: true } as const;
