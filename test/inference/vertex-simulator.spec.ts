import { GoogleGenAI } from '@google/genai';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VertexTokenCache } from '../../src/modules/inference/providers/google/vertex-token-cache.js';
import { vertexServiceAccount } from '../simulator/families/vertex.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

/**
 * The simulator's vertex family against the official client: `@google/genai` in Vertex mode (its paths and Bearer
 * auth), with an access token from the simulator's token endpoint through the gateway's own JWT-bearer grant.
 * (google-auth-library's service-account client posts to Google's fixed token URL, so it cannot be aimed here.)
 */
describe('simulator vertex family with @google/genai (vertexai)', () => {
  let sim: Simulator;
  let token: string;

  beforeAll(async () => {
    sim = await startSimulator();
    token = await new VertexTokenCache().token(
      {
        id: 'k',
        name: 'k',
        value: '',
        vertex: { projectId: 'sim-project', region: 'us-central1', serviceAccountJson: vertexServiceAccount(sim.url) },
      },
      {
        async post(url, headers, body) {
          const res = await fetch(url, { method: 'POST', headers, body });
          return { status: res.status, body: await res.text() };
        },
        get: () => Promise.reject(new Error('no GET in a Vertex token exchange')),
        now: () => Date.now(),
      },
    );
  });
  afterAll(() => sim?.close());

  const client = (accessToken: string) => {
    const authClient = new OAuth2Client();
    authClient.setCredentials({ access_token: accessToken, expiry_date: Date.now() + 3_600_000 });
    return new GoogleGenAI({
      vertexai: true,
      project: 'sim-project',
      location: 'us-central1',
      googleAuthOptions: { authClient },
      httpOptions: { baseUrl: `${sim.url}/vertex` },
    });
  };

  it('generateContent, generateContentStream and countTokens on the SDK paths', async () => {
    const ai = client(token);
    const unary = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello from genai' });
    expect(unary.text).toBe('echo: hello from genai');
    expect(unary.usageMetadata?.candidatesTokenCount).toBe(4);
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'stream it',
    }))
      text += chunk.text ?? '';
    expect(text).toBe('echo: stream it');
    const counted = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'three words here' });
    expect(counted.totalTokens).toBe(3);
    const paths = sim.requests({ family: 'vertex' }).filter((r) => r.path !== '/vertex/token');
    expect(paths.map((r) => r.path)).toEqual([
      '/vertex/v1beta1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
      '/vertex/v1beta1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
      '/vertex/v1beta1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:countTokens',
    ]);
    expect(paths.every((r) => r.headers.authorization === `Bearer ${token}`)).toBe(true);
  });

  it('an unknown token is refused with 401 UNAUTHENTICATED', async () => {
    await expect(
      client('ya29.not-issued').models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }),
    ).rejects.toMatchObject({ status: 401 });
  });
});
