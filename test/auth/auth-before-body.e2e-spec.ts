import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadUntilAnswered } from '../helpers/raw-http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { SETUP_TOKEN } from './auth-helpers.js';

const MB = 1024 * 1024;
const UPLOAD_BYTES = 25 * MB;
/** What the server may read of a refused upload: the head and the first socket reads, nowhere near the body. */
const READ_BOUND = 1 * MB;
const BOUNDARY = 'auth-before-body';

function head(path: string, baseUrl: string, headers: Record<string, string>): string {
  const lines = [
    `POST ${path} HTTP/1.1`,
    `host: ${new URL(baseUrl).host}`,
    `content-length: ${UPLOAD_BYTES}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * "Credentials are checked before any body is read" (DEVELOPERS.md, issue 45 §7): a 25 MB upload without credentials,
 * or with a wrong one, is answered 401 while almost all of it is still unread, measured by the bytes the server's
 * sockets read. The body limit is raised above the upload, so a refusal can only come from authentication.
 */
describe(`credentials before the body (${RUN_MODE})`, () => {
  let gw: TestApp;
  const sockets = new Set<Socket>();

  /** Sends the upload and returns the answer and the bytes the server read from the connection, once it is closed. */
  async function upload(path: string, headers: Record<string, string>) {
    sockets.clear();
    const outcome = await uploadUntilAnswered(gw.baseUrl, head(path, gw.baseUrl, headers), UPLOAD_BYTES);
    const open = [...sockets];
    await Promise.all(open.map((s) => new Promise((r) => (s.destroyed ? r(undefined) : s.once('close', r)))));
    return { ...outcome, serverRead: open.reduce((sum, s) => sum + s.bytesRead, 0) };
  }

  beforeAll(async () => {
    gw = await startTestApp({ config: { setup_token: SETUP_TOKEN, limits: { max_body_bytes: 64 * MB } } });
    gw.app.getHttpServer().on('connection', (socket: Socket) => sockets.add(socket));
  });
  afterAll(() => gw?.close());

  const multipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  const cases: Array<[string, string, Record<string, string>, string]> = [
    ['a multipart transcription, no credential', '/v1/audio/transcriptions', multipart, 'missing_credentials'],
    [
      'a multipart image edit, a wrong virtual key',
      '/openai/v1/images/edits',
      { ...multipart, authorization: 'Bearer sk-gw-not-a-real-key-000000000000000' },
      'invalid_credentials',
    ],
    [
      'an async multipart variation, a management key instead of a virtual key',
      '/v1/async/images/variations',
      { ...multipart, authorization: 'Bearer gwm_not-an-inference-credential' },
      'invalid_credentials',
    ],
    [
      'a JSON chat completion, no credential',
      '/v1/chat/completions',
      { 'content-type': 'application/json' },
      'missing_credentials',
    ],
    [
      'a management write, no setup token',
      '/api/providers',
      { 'content-type': 'application/json' },
      'setup_token_required',
    ],
    [
      'the setup-token exchange, no token',
      '/api/session/setup',
      { 'content-type': 'application/json' },
      'setup_token_required',
    ],
    [
      "an agent's push callback, no notification token",
      '/agents/a2a/someone/push?config=00000000-0000-4000-8000-000000000000',
      { 'content-type': 'application/json' },
      'missing_credentials',
    ],
    [
      "an agent's push callback, a token for no config",
      '/agents/a2a/someone/push?config=00000000-0000-4000-8000-000000000000',
      { 'content-type': 'application/json', authorization: 'Bearer not-a-minted-token' },
      'invalid_credentials',
    ],
  ];
  for (const [label, path, headers, code] of cases) {
    it(`${label}: 401 with under 1 MB of the 25 MB read`, async () => {
      const outcome = await upload(path, headers);
      expect({ status: outcome.status, code: outcome.body?.error?.code }).toEqual({ status: 401, code });
      expect(outcome.serverRead).toBeLessThan(READ_BOUND);
    });
  }

  it('the same upload with a virtual key is read whole (the measure sees a body that is read)', async () => {
    const vk = await gw.http.post(
      '/api/governance/virtual-keys',
      { name: 'uploader' },
      { headers: { 'x-gateway-setup-token': SETUP_TOKEN } },
    );
    expect(vk.status).toBe(201);
    const outcome = await upload('/v1/audio/transcriptions', {
      ...multipart,
      authorization: `Bearer ${vk.body.virtual_key.value}`,
    });
    // Not a well-formed form: refused for its body, after reading it.
    expect(outcome.status).toBe(400);
    expect(outcome.serverRead).toBeGreaterThan(UPLOAD_BYTES);
  });
});
