import { expect } from 'vitest';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The full GatewayError shape with the given status and code (one event_id in both places, type mirrored). */
export function expectGatewayError(body: any, status: number, code: string): void {
  expect(body).toMatchObject({ status_code: status, is_gateway_error: true, error: { code } });
  expect(body.event_id).toMatch(UUID);
  expect(body.error.event_id).toBe(body.event_id);
  expect(body.type).toBe(body.error.type);
  expect(typeof body.error.message).toBe('string');
  expect(body.extra_fields).toBeTypeOf('object');
}
