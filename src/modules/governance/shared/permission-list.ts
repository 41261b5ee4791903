import { formatPermission, parsePermission, type PermissionPair } from '../../../core/auth/permissions.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';

/**
 * Parses `Resource:Operation` strings into pairs (how roles and key scopes are stored), without duplicates.
 * An unknown string is a 400 naming `<param>[i]`.
 */
export function parsePermissionList(values: readonly unknown[], param: string): PermissionPair[] {
  assertStringItems(values, param);
  const seen = new Set<string>();
  const pairs: PermissionPair[] = [];
  values.forEach((value, i) => {
    const pair = parsePermission(value);
    if (!pair) {
      throw GatewayException.validation(
        `${param}[${i}]`,
        `${param}[${i}] "${value}" is not a known permission (Resource:View|Create|Update|Delete)`,
      );
    }
    const key = formatPermission(pair);
    if (seen.has(key)) return;
    seen.add(key);
    pairs.push(pair);
  });
  return pairs;
}

/** Stored pairs → sorted `Resource:Operation` strings for the wire. */
export function formatPermissionList(pairs: readonly PermissionPair[]): string[] {
  return pairs.map(formatPermission).sort();
}

/** Every item a nonempty string; otherwise a 400 naming `<param>[i]` (the DTO `each` validators only name the array). */
export function assertStringItems(values: readonly unknown[], param: string): asserts values is string[] {
  values.forEach((value, i) => {
    if (typeof value !== 'string' || value.trim() === '') {
      throw GatewayException.validation(`${param}[${i}]`, `${param}[${i}] must be a nonempty string`);
    }
  });
}
