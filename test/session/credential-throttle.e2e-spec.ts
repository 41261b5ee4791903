import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ADDRESS } from '../../src/core/auth/credential-throttle.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  SETUP_TOKEN,
  authEnabledConfig,
  basic,
  bearer,
} from '../auth/auth-helpers.js';

const legacyBearer = (username: string, password: string) =>
  bearer(Buffer.from(`${username}:${password}`).toString('base64'));

function login(gw: TestApp, username: string, password: string) {
  return gw.http.post('/api/session/login', { username, password });
}

function statuses(results: Array<{ status: number }>): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of results) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

function expectThrottled(res: { status: number; headers: Headers; body: any }): void {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('login_throttled');
  expect(res.body.is_gateway_error).toBe(true);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(900);
}

describe(`every password check shares one throttle (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeEach(async () => {
    gw = await startTestApp({ config: authEnabledConfig() });
  });
  afterEach(() => gw?.close());

  it('60 wrong Basic passwords: the 6th and later are 429 with Retry-After, the right password too', async () => {
    const results = [];
    for (let i = 0; i < 60; i++)
      results.push(await gw.http.get('/metrics', { headers: basic(ADMIN_USERNAME, `guess-${i}`) }));
    expect(statuses(results)).toEqual({ 401: MAX_FAILURES_PER_ACCOUNT, 429: 60 - MAX_FAILURES_PER_ACCOUNT });
    expectThrottled(results[59]!);
    expectThrottled(await gw.http.get('/metrics', { headers: ADMIN_BASIC }));
  });

  it('legacy Bearer base64(user:pass), Basic and login count against the same username', async () => {
    expect((await gw.http.get('/metrics', { headers: basic(ADMIN_USERNAME, 'a') })).status).toBe(401);
    expect((await gw.http.get('/metrics', { headers: basic(ADMIN_USERNAME, 'b') })).status).toBe(401);
    expect((await gw.http.get('/metrics', { headers: legacyBearer(ADMIN_USERNAME, 'c') })).status).toBe(401);
    expect((await gw.http.get('/metrics', { headers: legacyBearer(ADMIN_USERNAME, 'd') })).status).toBe(401);
    expect((await login(gw, ADMIN_USERNAME, 'e')).status).toBe(401);
    expectThrottled(await gw.http.get('/metrics', { headers: legacyBearer(ADMIN_USERNAME, ADMIN_PASSWORD) }));
    expectThrottled(await login(gw, ADMIN_USERNAME, ADMIN_PASSWORD));
    expectThrottled(await gw.http.get('/metrics', { headers: ADMIN_BASIC }));
  });

  it('per address: 20 failures over many usernames throttle every username from that address', async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      const headers = i % 2 ? basic(`user${i}`, 'x') : legacyBearer(`user${i}`, 'x');
      expect((await gw.http.get('/metrics', { headers })).status).toBe(401);
    }
    expectThrottled(await gw.http.get('/metrics', { headers: ADMIN_BASIC }));
  });

  it('a right password is not a failure and clears the username count', async () => {
    for (let i = 0; i < 4; i++)
      expect((await gw.http.get('/metrics', { headers: basic(ADMIN_USERNAME, 'x') })).status).toBe(401);
    for (let i = 0; i < 10; i++) expect((await gw.http.get('/metrics', { headers: ADMIN_BASIC })).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect((await gw.http.get('/metrics', { headers: basic(ADMIN_USERNAME, 'x') })).status).toBe(401);
    expect((await gw.http.get('/metrics', { headers: ADMIN_BASIC })).status).toBe(200);
  });

  it('atomic: 12 concurrent wrong passwords evaluate only 5; 30 concurrent logins from one address evaluate only 20', async () => {
    const wrong = await Promise.all(Array.from({ length: 12 }, (_, i) => login(gw, ADMIN_USERNAME, `concurrent-${i}`)));
    expect(statuses(wrong)).toEqual({ 401: MAX_FAILURES_PER_ACCOUNT, 429: 12 - MAX_FAILURES_PER_ACCOUNT });
    for (const res of wrong.filter((r) => r.status === 429)) expectThrottled(res);

    const other = await startTestApp({ config: authEnabledConfig() });
    try {
      const spread = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login(other, `person${i}@example.com`, 'wrong')),
      );
      expect(statuses(spread)).toEqual({ 401: MAX_FAILURES_PER_ADDRESS, 429: 30 - MAX_FAILURES_PER_ADDRESS });
    } finally {
      await other.close();
    }
  });
});

describe(`the setup token is throttled like a password (${RUN_MODE})`, () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
  });
  afterAll(() => gw?.close());

  it('120 wrong tokens: 5 are checked (403), the rest 429 with Retry-After; the right token then waits too', async () => {
    const results = [];
    for (let i = 0; i < 120; i++) {
      // Half through the header on any management route, half through the exchange route.
      const headers = { 'x-gateway-setup-token': `wrong-token-${i}` };
      results.push(
        i % 2
          ? await gw.http.get('/api/agents', { headers })
          : await gw.http.post('/api/session/setup', undefined, { headers }),
      );
    }
    expect(statuses(results)).toEqual({ 403: MAX_FAILURES_PER_ACCOUNT, 429: 120 - MAX_FAILURES_PER_ACCOUNT });
    for (const res of results.filter((r) => r.status === 403)) expect(res.body.error.code).toBe('setup_token_invalid');
    expectThrottled(results[119]!);
    expectThrottled(await gw.http.get('/api/agents', { headers: { 'x-gateway-setup-token': SETUP_TOKEN } }));
  });
});

describe(`concurrent right credentials are never throttled (${RUN_MODE})`, () => {
  // Checks still in flight hold places under the limits (so concurrent wrong guesses cannot all be compared), but they
  // are no failures: a burst of right secrets waits for a place instead of answering 429.
  it('40 requests at once with the right setup token, then with the admin password: all answered', async () => {
    const locked = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    try {
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          locked.http.get('/api/agents', { headers: { 'x-gateway-setup-token': SETUP_TOKEN } }),
        ),
      );
      expect(statuses(results)).toEqual({ 200: 40 });
    } finally {
      await locked.close();
    }
    const dashboard = await startTestApp({ config: authEnabledConfig() });
    try {
      const results = await Promise.all(
        Array.from({ length: 40 }, () => dashboard.http.get('/metrics', { headers: ADMIN_BASIC })),
      );
      expect(statuses(results)).toEqual({ 200: 40 });
    } finally {
      await dashboard.close();
    }
  });
});

describe(`concurrent wrong setup tokens (${RUN_MODE})`, () => {
  it('12 at once: only 5 are compared', async () => {
    const gw = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          gw.http.get('/api/agents', { headers: { 'x-gateway-setup-token': `nope-${i}` } }),
        ),
      );
      expect(statuses(results)).toEqual({ 403: MAX_FAILURES_PER_ACCOUNT, 429: 12 - MAX_FAILURES_PER_ACCOUNT });
    } finally {
      await gw.close();
    }
  });

  it('a setup token shorter than 16 characters is warned about at start, without the token', async () => {
    const short = 'short-tok';
    const gw = await startTestApp({ config: { setup_token: short } });
    try {
      const warning = gw.logs.records().find((r) => String(r.msg).includes('setup token is shorter than 16'));
      expect(warning?.level).toBe('warn');
      expect(gw.logs.text()).not.toContain(short);
      const long = await startTestApp({ config: { setup_token: SETUP_TOKEN } });
      try {
        expect(long.logs.text()).not.toContain('setup token is shorter');
      } finally {
        await long.close();
      }
    } finally {
      await gw.close();
    }
  });
});
