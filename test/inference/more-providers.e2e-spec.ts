import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MANTLE_TEST_CREDENTIALS } from '../simulator/families/mantle-sigv4.js';
import { expectInferenceError, seen, startInferenceStack, type InferenceStack } from './inference-kit.js';
import { addProvider, eventually, pinned, readChatStream } from './more-providers-kit.js';

const user = (content: string) => [{ role: 'user' as const, content }];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The OpenAI-like providers with rules of their own, through the openai SDK on /v1 against the simulator: Databricks
 * (PAT, OAuth M2M, Unity Catalog names), GitHub Copilot (token exchange, editor headers), OpenCode Zen/Go (a wire
 * format per model), Bedrock Mantle (Bearer and SigV4) and Hugging Face (feature-extraction embeddings).
 */
describe('more providers on /v1', () => {
  let s: InferenceStack;
  beforeAll(async () => {
    s = await startInferenceStack();
    const sim = s.sim.url;
    await addProvider(s, 'databricks', `${sim}/databricks`, [
      { name: 'dbx-pat', value: 'dapi-pat-1' },
      { name: 'dbx-oauth', value: 'oauth:client-1:client-secret-1' },
      { name: 'dbx-oauth-short', value: 'oauth:client-2:client-secret-2' },
    ]);
    await addProvider(s, 'github-copilot', `${sim}/copilot`, [
      { name: 'gh-1', value: 'gho_sim_token_1' },
      { name: 'gh-short', value: 'gho_sim_token_2' },
    ]);
    await addProvider(s, 'opencode-zen', `${sim}/opencode`, [{ name: 'zen', value: 'oc-zen-key' }]);
    await addProvider(s, 'opencode-go', `${sim}/opencode`, [{ name: 'go', value: 'oc-go-key' }]);
    await addProvider(s, 'bedrock_mantle', `${sim}/mantle`, [
      { name: 'mantle-bearer', value: 'bedrock-api-key-1' },
      {
        name: 'mantle-sigv4',
        bedrock_key_config: {
          region: 'us-west-2',
          access_key: MANTLE_TEST_CREDENTIALS.accessKeyId,
          secret_key: MANTLE_TEST_CREDENTIALS.secretAccessKey,
        },
      },
      {
        name: 'mantle-wrong-secret',
        bedrock_key_config: {
          region: 'us-west-2',
          access_key: MANTLE_TEST_CREDENTIALS.accessKeyId,
          secret_key: 'not-the-secret',
        },
      },
    ]);
    await addProvider(s, 'huggingface', `${sim}/huggingface/v1`, [{ name: 'hf', value: 'hf_sim_token' }]);
  });
  afterAll(() => s?.close());
  beforeEach(() => s.sim.reset());

  describe('databricks', () => {
    it('a serving endpoint with a PAT: unary and stream on /serving-endpoints/chat/completions', async () => {
      const answer = await s.openai.chat.completions.create(
        { model: 'databricks/my-endpoint', messages: user('databricks pat') },
        pinned('dbx-pat'),
      );
      expect(answer.choices[0]!.message.content).toBe('echo: databricks pat');
      const stream = await s.openai.chat.completions.create(
        { model: 'databricks/my-endpoint', messages: user('databricks stream'), stream: true },
        pinned('dbx-pat'),
      );
      expect((await readChatStream(stream)).text).toBe('echo: databricks stream');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual([
        '/databricks/serving-endpoints/chat/completions',
        '/databricks/serving-endpoints/chat/completions',
      ]);
      expect(calls[0].headers.authorization).toBe('Bearer dapi-pat-1');
      expect(calls[0].body.model).toBe('my-endpoint');
      expect(calls[1].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    });

    it('a dotted Unity Catalog name goes to /ai-gateway/mlflow/v1', async () => {
      const answer = await s.openai.chat.completions.create(
        { model: 'databricks/system.ai.llama-4', messages: user('unity catalog') },
        pinned('dbx-pat'),
      );
      expect(answer.choices[0]!.message.content).toBe('echo: unity catalog');
      const call = seen(s.sim).at(-1);
      expect(call.path).toBe('/databricks/ai-gateway/mlflow/v1/chat/completions');
      expect(call.body.model).toBe('system.ai.llama-4');
    });

    it('OAuth M2M: one token exchange serves two requests; the secret is sent only to the token endpoint', async () => {
      for (const text of ['oauth one', 'oauth two']) {
        const stream = await s.openai.chat.completions.create(
          { model: 'databricks/my-endpoint', messages: user(text), stream: true },
          pinned('dbx-oauth'),
        );
        expect((await readChatStream(stream)).text).toBe(`echo: ${text}`);
      }
      const calls = seen(s.sim);
      const exchanges = calls.filter((c) => c.path === '/databricks/oidc/v1/token');
      expect(exchanges.length).toBeLessThanOrEqual(1); // cached from an earlier test of this key, or exchanged now
      const chats = calls.filter((c) => c.path === '/databricks/serving-endpoints/chat/completions');
      expect(chats).toHaveLength(2);
      expect(chats[0].headers.authorization).toMatch(/^Bearer dbx-oauth-/);
      expect(chats[1].headers.authorization).toBe(chats[0].headers.authorization);
      expect(JSON.stringify(chats)).not.toContain('client-secret-1');
    });

    it('OAuth M2M: the exchange is HTTP Basic client_credentials, re-done once the token nears expiry', async () => {
      // The first exchange answers a one-second token: it is refreshed half-way through its life.
      s.sim.scenario({
        match: { family: 'databricks', path: '/oidc/v1/token' },
        responses: [{ status: 200, body: { access_token: 'dbx-oauth-short', token_type: 'Bearer', expires_in: 1 } }],
      });
      const ask = () =>
        s.openai.chat.completions.create(
          { model: 'databricks/my-endpoint', messages: user('expiring') },
          pinned('dbx-oauth-short'),
        );
      await ask();
      await ask();
      let exchanges = seen(s.sim).filter((c) => c.path === '/databricks/oidc/v1/token');
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0].method).toBe('POST');
      expect(exchanges[0].headers.authorization).toBe(
        `Basic ${Buffer.from('client-2:client-secret-2').toString('base64')}`,
      );
      expect(exchanges[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(exchanges[0].body).toBe('grant_type=client_credentials&scope=all-apis');
      let chats = seen(s.sim).filter((c) => c.path.endsWith('/chat/completions'));
      expect(chats.map((c) => c.headers.authorization)).toEqual(['Bearer dbx-oauth-short', 'Bearer dbx-oauth-short']);
      await sleep(600);
      await ask();
      exchanges = seen(s.sim).filter((c) => c.path === '/databricks/oidc/v1/token');
      expect(exchanges).toHaveLength(2);
      chats = seen(s.sim).filter((c) => c.path.endsWith('/chat/completions'));
      expect(chats.at(-1).headers.authorization).toMatch(/^Bearer dbx-oauth-(?!short)/);
    });

    it('a refused client secret is a gateway error, never a 500, and names no secret', async () => {
      s.sim.scenario({
        match: { family: 'databricks', path: '/oidc/v1/token' },
        responses: [{ status: 401, body: { error: 'invalid_client' } }],
        repeat: true,
      });
      await s.admin.post('/api/providers/databricks/keys', { name: 'dbx-bad', value: 'oauth:client-9:wrong-secret' });
      const res = await s.inference.post(
        '/v1/chat/completions',
        { model: 'databricks/my-endpoint', messages: user('x') },
        pinned('dbx-bad'),
      );
      expect(res.status, res.text).toBe(502);
      expect(res.body.error.message).toContain('databricks token exchange answered HTTP 401');
      expect(res.text).not.toContain('wrong-secret');
      expect(seen(s.sim).some((c) => c.path.endsWith('/chat/completions'))).toBe(false);
    });
  });

  describe('github-copilot', () => {
    it('exchanges the GitHub token once, then calls endpoints.api with the session token and editor headers', async () => {
      const answer = await s.openai.chat.completions.create(
        { model: 'github-copilot/gpt-4o', messages: user('copilot unary') },
        pinned('gh-1'),
      );
      expect(answer.choices[0]!.message.content).toBe('echo: copilot unary');
      const stream = await s.openai.chat.completions.create(
        { model: 'github-copilot/gpt-4o', messages: user('copilot stream'), stream: true },
        pinned('gh-1'),
      );
      const streamed = await readChatStream(stream);
      expect(streamed.text).toBe('echo: copilot stream');
      const calls = seen(s.sim);
      expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
        'GET /copilot/copilot_internal/v2/token',
        'POST /copilot/api/chat/completions',
        'POST /copilot/api/chat/completions',
      ]);
      const [exchange, chat, streamedChat] = calls;
      expect(exchange.headers.authorization).toBe('token gho_sim_token_1');
      for (const call of [chat, streamedChat]) {
        expect(call.headers.authorization).toMatch(/^Bearer tid=/);
        expect(call.headers['editor-version']).toMatch(/^vscode\//);
        expect(call.headers['editor-plugin-version']).toMatch(/^copilot-chat\//);
        expect(call.headers['copilot-integration-id']).toBe('vscode-chat');
        expect(call.headers['user-agent']).toMatch(/^GitHubCopilotChat\//);
        expect(JSON.stringify(call.headers)).not.toContain('gho_sim_token_1');
      }
      expect(streamedChat.body.stream).toBe(true);
    });

    it('the session is re-exchanged after refresh_in', async () => {
      s.sim.scenario({
        match: { family: 'copilot', path: '/copilot_internal/v2/token' },
        responses: [
          {
            status: 200,
            body: {
              token: 'tid=short-lived;exp=0',
              expires_at: Math.floor(Date.now() / 1000) + 3600,
              refresh_in: 1,
              endpoints: { api: `${s.sim.url}/copilot/api` },
            },
          },
        ],
      });
      const ask = () =>
        s.openai.chat.completions.create({ model: 'github-copilot/gpt-4o', messages: user('r') }, pinned('gh-short'));
      await ask();
      await ask();
      const exchanges = () => seen(s.sim).filter((c) => c.path === '/copilot/copilot_internal/v2/token');
      expect(exchanges()).toHaveLength(1);
      expect(exchanges()[0].headers.authorization).toBe('token gho_sim_token_2');
      await sleep(1_100);
      await ask();
      expect(exchanges()).toHaveLength(2);
      const chats = seen(s.sim).filter((c) => c.path === '/copilot/api/chat/completions');
      expect(chats.map((c) => c.headers.authorization.startsWith('Bearer tid=short-lived'))).toEqual([
        true,
        true,
        false,
      ]);
    });
  });

  describe('opencode', () => {
    it('claude-* on Zen goes to Anthropic /v1/messages with x-api-key (unary and stream)', async () => {
      const answer = await s.openai.chat.completions.create({
        model: 'opencode-zen/claude-sonnet-4-5',
        messages: user('zen claude'),
        max_tokens: 100,
      });
      expect(answer.choices[0]!.message.content).toBe('echo: zen claude');
      const stream = await s.openai.chat.completions.create({
        model: 'opencode-zen/claude-sonnet-4-5',
        messages: user('zen claude stream'),
        max_tokens: 100,
        stream: true,
        stream_options: { include_usage: true },
      });
      const streamed = await readChatStream(stream);
      expect(streamed.text).toBe('echo: zen claude stream');
      expect(streamed.usage?.total_tokens).toBeGreaterThan(0);
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual(['/opencode/v1/messages', '/opencode/v1/messages']);
      expect(calls[0].headers['x-api-key']).toBe('oc-zen-key');
      expect(calls[0].headers['anthropic-version']).toBeDefined();
      expect(calls[1].body.stream).toBe(true);
    });

    it('gemini-* goes to the Gemini surface on /v1/models (unary and SSE stream)', async () => {
      const answer = await s.openai.chat.completions.create({
        model: 'opencode-zen/gemini-3-flash',
        messages: user('zen gemini'),
      });
      expect(answer.choices[0]!.message.content).toBe('echo: zen gemini');
      const stream = await s.openai.chat.completions.create({
        model: 'opencode-zen/gemini-3-flash',
        messages: user('zen gemini stream'),
        stream: true,
      });
      expect((await readChatStream(stream)).text).toBe('echo: zen gemini stream');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual([
        '/opencode/v1/models/gemini-3-flash:generateContent',
        '/opencode/v1/models/gemini-3-flash:streamGenerateContent',
      ]);
      expect(calls[1].query.alt).toBe('sse');
      expect(calls[0].headers['x-goog-api-key']).toBe('oc-zen-key');
    });

    // A chat request to gpt-* and a Responses request to other models are bridged: opencode-bridges.e2e-spec.ts.
    it('gpt-* goes to the Responses API (unary and stream)', async () => {
      const response = await s.openai.responses.create({ model: 'opencode-zen/gpt-5.1', input: 'zen gpt' });
      expect(response.output_text).toBe('echo: zen gpt');
      const stream = await s.openai.responses.create({
        model: 'opencode-zen/gpt-5.1',
        input: 'zen gpt stream',
        stream: true,
      });
      let text = '';
      for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
      expect(text).toBe('echo: zen gpt stream');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual(['/opencode/v1/responses', '/opencode/v1/responses']);
      expect(calls[0].headers.authorization).toBe('Bearer oc-zen-key');
      expect(calls[1].body.stream).toBe(true);
    });

    it('other models are chat completions; Go sends minimax-* to its Anthropic surface', async () => {
      const stream = await s.openai.chat.completions.create({
        model: 'opencode-zen/kimi-k2.5',
        messages: user('zen kimi'),
        stream: true,
      });
      expect((await readChatStream(stream)).text).toBe('echo: zen kimi');
      const answer = await s.openai.chat.completions.create({
        model: 'opencode-go/minimax-m2.5',
        messages: user('go minimax'),
        max_tokens: 100,
      });
      expect(answer.choices[0]!.message.content).toBe('echo: go minimax');
      const zenMinimax = await s.openai.chat.completions.create({
        model: 'opencode-zen/minimax-m2.5',
        messages: user('zen minimax'),
      });
      expect(zenMinimax.choices[0]!.message.content).toBe('echo: zen minimax');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual([
        '/opencode/v1/chat/completions',
        '/opencode/v1/messages',
        '/opencode/v1/chat/completions',
      ]);
      expect(calls[0].headers.authorization).toBe('Bearer oc-zen-key');
      expect(calls[1].headers['x-api-key']).toBe('oc-go-key');
    });
  });

  describe('bedrock_mantle', () => {
    it('open models on /v1 with the Bedrock API key as Bearer (unary and stream)', async () => {
      const answer = await s.openai.chat.completions.create(
        { model: 'bedrock_mantle/openai.gpt-oss-120b', messages: user('mantle bearer') },
        pinned('mantle-bearer'),
      );
      expect(answer.choices[0]!.message.content).toBe('echo: mantle bearer');
      const stream = await s.openai.chat.completions.create(
        { model: 'bedrock_mantle/openai.gpt-oss-120b', messages: user('mantle stream'), stream: true },
        pinned('mantle-bearer'),
      );
      expect((await readChatStream(stream)).text).toBe('echo: mantle stream');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual(['/mantle/v1/chat/completions', '/mantle/v1/chat/completions']);
      expect(calls[0].headers.authorization).toBe('Bearer bedrock-api-key-1');
      expect(calls[0].body.model).toBe('openai.gpt-oss-120b');
    });

    it('Claude models on /anthropic/v1/messages, Bearer and no x-api-key', async () => {
      const answer = await s.openai.chat.completions.create(
        { model: 'bedrock_mantle/anthropic.claude-sonnet-4-5', messages: user('mantle claude'), max_tokens: 50 },
        pinned('mantle-bearer'),
      );
      expect(answer.choices[0]!.message.content).toBe('echo: mantle claude');
      const call = seen(s.sim).at(-1);
      expect(call.path).toBe('/mantle/anthropic/v1/messages');
      expect(call.headers.authorization).toBe('Bearer bedrock-api-key-1');
      expect(call.headers['x-api-key']).toBeUndefined();
      expect(call.headers['anthropic-version']).toBeDefined();
    });

    it('access keys sign with SigV4 (service bedrock-mantle, the key region), verified by the simulator', async () => {
      const answer = await s.openai.chat.completions.create(
        { model: 'bedrock_mantle/openai.gpt-oss-120b', messages: user('mantle signed') },
        pinned('mantle-sigv4'),
      );
      expect(answer.choices[0]!.message.content).toBe('echo: mantle signed');
      const stream = await s.openai.chat.completions.create(
        { model: 'bedrock_mantle/anthropic.claude-sonnet-4-5', messages: user('signed claude'), stream: true },
        pinned('mantle-sigv4'),
      );
      expect((await readChatStream(stream)).text).toBe('echo: signed claude');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.status)).toEqual([200, 200]);
      for (const call of calls) {
        expect(call.headers.authorization).toMatch(
          new RegExp(
            `^AWS4-HMAC-SHA256 Credential=${MANTLE_TEST_CREDENTIALS.accessKeyId}/\\d{8}/us-west-2/bedrock-mantle/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$`,
          ),
        );
        expect(call.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
        expect(call.key).toBe(MANTLE_TEST_CREDENTIALS.accessKeyId);
      }
      expect(calls[1].path).toBe('/mantle/anthropic/v1/messages');
    });

    it('a wrong secret fails the simulator check (403), so the signature is really verified', async () => {
      const res = await s.inference.post(
        '/v1/chat/completions',
        { model: 'bedrock_mantle/openai.gpt-oss-120b', messages: user('x') },
        pinned('mantle-wrong-secret'),
      );
      expect(res.status).not.toBe(200);
      expect(res.body.is_gateway_error === false || res.status === 502).toBe(true);
      expect(seen(s.sim).at(-1).status).toBe(403);
    });
  });

  describe('huggingface', () => {
    it('chat through the router /v1 (unary and stream)', async () => {
      const answer = await s.openai.chat.completions.create({
        model: 'huggingface/meta-llama/Llama-3.1-8B-Instruct',
        messages: user('hf chat'),
      });
      expect(answer.choices[0]!.message.content).toBe('echo: hf chat');
      const stream = await s.openai.chat.completions.create({
        model: 'huggingface/meta-llama/Llama-3.1-8B-Instruct',
        messages: user('hf stream'),
        stream: true,
      });
      expect((await readChatStream(stream)).text).toBe('echo: hf stream');
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual([
        '/huggingface/v1/chat/completions',
        '/huggingface/v1/chat/completions',
      ]);
      expect(calls[0].body.model).toBe('meta-llama/Llama-3.1-8B-Instruct');
      expect(calls[0].headers.authorization).toBe('Bearer hf_sim_token');
    });

    it('embeddings through the feature-extraction task (a list and a single input; SDK base64 decoded)', async () => {
      const many = await s.openai.embeddings.create({
        model: 'huggingface/sentence-transformers/all-MiniLM-L6-v2',
        input: ['first text', 'second text'],
      });
      expect(many.data.map((d) => d.index)).toEqual([0, 1]);
      expect(many.data[0]!.embedding).toHaveLength(16);
      expect(many.data[0]!.embedding).not.toEqual(many.data[1]!.embedding);
      const one = await s.openai.embeddings.create({
        model: 'huggingface/sentence-transformers/all-MiniLM-L6-v2',
        input: 'first text',
        encoding_format: 'float',
      });
      expect(one.data).toHaveLength(1);
      expect(one.data[0]!.embedding[0]).toBeCloseTo(many.data[0]!.embedding[0]!, 5);
      const calls = seen(s.sim);
      expect(calls.map((c) => c.path)).toEqual([
        '/huggingface/hf-inference/models/sentence-transformers/all-MiniLM-L6-v2/pipeline/feature-extraction',
        '/huggingface/hf-inference/models/sentence-transformers/all-MiniLM-L6-v2/pipeline/feature-extraction',
      ]);
      expect(calls[0].body).toEqual({ inputs: ['first text', 'second text'] });
      expect(calls[1].body).toEqual({ inputs: 'first text' });
      expect(calls[0].headers.authorization).toBe('Bearer hf_sim_token');
    });
  });

  it('databricks without a base_url is a 400 naming base_url', async () => {
    const put = await s.admin.put('/api/providers/databricks', { base_url: null });
    expect(put.status, put.text).toBe(200);
    await eventually(async () => {
      const res = await s.inference.post('/v1/chat/completions', {
        model: 'databricks/my-endpoint',
        messages: user('x'),
      });
      if (res.status !== 400) return false;
      expectInferenceError(res, 400, 'caller_invalid_request', { param: 'base_url' });
      return true;
    });
    expect(seen(s.sim)).toHaveLength(0);
  });
});
