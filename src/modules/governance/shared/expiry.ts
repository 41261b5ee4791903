import { GatewayException } from '../../../core/errors/gateway.exception.js';

/** Parses an `expires_at` input (RFC 3339, already pattern-checked by the DTO); it must lie in the future. */
export function parseFutureExpiry(value: string | null | undefined, param = 'expires_at'): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw GatewayException.validation(param, `${param} is not a valid RFC 3339 time`);
  if (at.getTime() <= Date.now()) throw GatewayException.validation(param, `${param} must be in the future`);
  return at;
}
