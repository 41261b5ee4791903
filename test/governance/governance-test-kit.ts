import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { expect } from 'vitest';
import type { HttpClient } from '../helpers/http.js';
import type { TestApp } from '../helpers/test-app.js';

export const SETUP_TOKEN = 'setup-token-123456';
export const OSS_CONFIG = { setup_token: SETUP_TOKEN };
export const ENTERPRISE_CONFIG = {
  edition: 'enterprise',
  auth_config: { is_enabled: true, admin_username: 'admin', admin_password: 'admin-pass-123' },
};

/** The management client of an open-source gateway (setup lock). */
export function ossClient(gw: TestApp): HttpClient {
  return gw.http.withHeaders({ 'X-Gateway-Setup-Token': SETUP_TOKEN });
}

/** The local admin of an enterprise gateway (Basic auth). */
export function adminClient(gw: TestApp): HttpClient {
  return gw.http.withHeaders({ Authorization: `Basic ${Buffer.from('admin:admin-pass-123').toString('base64')}` });
}

export function bearerClient(gw: TestApp, token: string): HttpClient {
  return gw.http.withHeaders({ Authorization: `Bearer ${token}` });
}

export function sql<T = any>(gw: TestApp, query: string, params: unknown[] = []): Promise<T[]> {
  return gw.app.get<DataSource>(getDataSourceToken()).query(query, params);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A GatewayError with the given status, code and (for 400) param. */
export function expectError(res: { status: number; body: any }, status: number, code: string, param?: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.is_gateway_error).toBe(true);
  expect(res.body.status_code).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}
