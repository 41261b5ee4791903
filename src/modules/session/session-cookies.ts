import type { FastifyReply, FastifyRequest } from 'fastify';

/** HttpOnly, SameSite=Strict, Path=/; Secure when the request came over TLS (decisions.md, cookies). */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  token: string,
  expiresAt: Date,
): void {
  void reply.setCookie(name, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/',
    expires: expiresAt,
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, name: string): void {
  void reply.clearCookie(name, { httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', path: '/' });
}
