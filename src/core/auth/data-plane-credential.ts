/**
 * What the data-plane authenticator decided a request runs with, set on the request before its body is read. Nothing
 * after the route gate reads a credential header again: handlers read this.
 * - `virtual_key`: a verified virtual key (`request.principal` carries it).
 * - `provider_key`: a provider key passed through (`inference.allow_direct_keys`, routes declaring `directKeys`).
 * - `anonymous`: no usable credential where the route takes none (`inference.require_virtual_key` off): the stored
 *   provider keys serve it.
 */
export type DataPlaneCredential =
  | { readonly kind: 'virtual_key' }
  | { readonly kind: 'provider_key'; readonly value: string }
  | { readonly kind: 'anonymous' };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the route gate on every virtual-key route (`@VirtualKeyAuth`). */
    credential?: DataPlaneCredential;
  }
}

export const VIRTUAL_KEY_CREDENTIAL: DataPlaneCredential = Object.freeze({ kind: 'virtual_key' });
export const ANONYMOUS_CREDENTIAL: DataPlaneCredential = Object.freeze({ kind: 'anonymous' });

/** The provider key to pass through upstream, or undefined when the request uses the stored keys. */
export function directKeyOf(credential: DataPlaneCredential | undefined): string | undefined {
  return credential?.kind === 'provider_key' ? credential.value : undefined;
}
