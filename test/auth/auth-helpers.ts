import { createHash } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/test-app.js';

export const SETUP_TOKEN = 'setup-token-123456';
export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'correct-horse-battery-staple';

/** Config of a gateway with dashboard auth on (the local admin account). */
export function authEnabledConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    setup_token: SETUP_TOKEN,
    auth_config: { is_enabled: true, admin_username: ADMIN_USERNAME, admin_password: ADMIN_PASSWORD },
    ...extra,
  };
}

export function basic(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export const ADMIN_BASIC = basic(ADMIN_USERNAME, ADMIN_PASSWORD);
export const SETUP_HEADER = { 'x-gateway-setup-token': SETUP_TOKEN };

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function expectError(res: { status: number; body: any }, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(res.body.status_code).toBe(status);
  expect(res.body.is_gateway_error).toBe(true);
}

/** Parses one Set-Cookie header of a response into its value and attributes (lower-cased names). */
export function readSetCookie(headers: Headers, name: string): { value: string; attrs: Record<string, string> } {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!line) throw new Error(`no Set-Cookie for ${name}`);
  const [pair, ...rest] = line.split(';').map((p) => p.trim());
  const attrs: Record<string, string> = {};
  for (const part of rest) {
    const [k, ...v] = part.split('=');
    attrs[k!.toLowerCase()] = v.join('=');
  }
  return { value: decodeURIComponent(pair!.slice(name.length + 1)), attrs };
}

/** Polls until `check` stops throwing (audit rows are written after the response). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() - started > timeoutMs) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export function dataSourceOf(gw: TestApp): DataSource {
  return gw.app.get<DataSource>(getDataSourceToken());
}
