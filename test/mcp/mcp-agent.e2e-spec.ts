import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpClient, HttpResult } from '../helpers/http.js';
import { created, seen, sseMessages } from '../inference/inference-kit.js';
import {
  createKey,
  settledQuota,
  startGovernedStack,
  type GovernedKey,
  type GovernedStack,
} from '../governance/limits-kit.js';
import { startHttpPeer } from './mcp-peers.js';

/**
 * MCP tools in /v1/chat/completions and /v1/responses (docs/mcp.md "Tools in inference", "Agent mode"), through HTTP:
 * a real MCP server over Streamable HTTP, MCP clients and virtual keys created with the management API, the provider
 * simulator scripting tool-call rounds (its `tool_calls` knob).
 */

/** Tools of the test peer (test/mcp/mcp-peers.ts). */
const ECHO = 'echo';
const ADD = 'add';
const DEPTH = 3;

type Peer = Awaited<ReturnType<typeof startHttpPeer>>;

describe('MCP tools in inference', () => {
  let s: GovernedStack;
  let peer: Peer;
  let alpha: GovernedKey;
  let beta: GovernedKey;
  let agent: GovernedKey;
  let manual: GovernedKey;

  async function client(body: Record<string, unknown>): Promise<any> {
    const res = await created(
      s.admin.post('/api/mcp/client', { connection_type: 'http', connection_string: peer.url, ...body }),
    );
    return res.client ?? res;
  }

  /** The MCP tool names of an upstream chat body (caller tools excluded). */
  function offered(body: any, prefix?: string): string[] {
    const names = ((body.tools ?? []) as any[]).map((t) => t.function?.name ?? t.name) as string[];
    return prefix === undefined ? names : names.filter((n) => n.startsWith(prefix));
  }

  function chatOf(key: GovernedKey, body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const c: HttpClient = Object.keys(headers).length > 0 ? key.client.withHeaders(headers) : key.client;
    return c.post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', ...body });
  }

  const hello = { messages: [{ role: 'user', content: 'hello' }] };

  beforeAll(async () => {
    peer = await startHttpPeer();
    s = await startGovernedStack({ outbound: { allow_loopback: true }, mcp: { max_agent_depth: DEPTH } });
    alpha = await createKey(s, { name: 'alpha-key' });
    beta = await createKey(s, { name: 'beta-key' });
    agent = await createKey(s, { name: 'agent-key', budgets: [{ max_limit: 100, reset_duration: '1d' }] });
    manual = await createKey(s, { name: 'manual-key' });
    // alpha: every tool for alpha-key; beta: only echo for beta-key; auto: echo and add auto-executed, priced.
    await client({ name: 'alpha', tools_to_execute: ['*'], vk_configs: [{ virtual_key_id: alpha.id }] });
    await client({
      name: 'beta',
      tools_to_execute: ['*'],
      vk_configs: [{ virtual_key_id: beta.id, tools_to_execute: [ECHO] }],
    });
    await client({
      name: 'auto',
      tools_to_execute: ['*'],
      tools_to_auto_execute: [ECHO, ADD, 'fail'],
      tool_pricing: { [ECHO]: 0.01, [ADD]: 0.02 },
      vk_configs: [{ virtual_key_id: agent.id }],
    });
    await client({
      name: 'manual',
      tools_to_execute: ['*'],
      tools_to_auto_execute: [ADD],
      vk_configs: [{ virtual_key_id: manual.id }],
    });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await peer?.close();
  });
  beforeEach(() => s.sim.reset());

  describe('injection', () => {
    it('offers each key its own clients, after the caller tools; a caller tool of the same name wins', async () => {
      const own = { type: 'function', function: { name: `alpha-${ECHO}`, parameters: { type: 'object' } } };
      const mine = { type: 'function', function: { name: 'my_tool', parameters: { type: 'object' } } };
      expect((await chatOf(alpha, { ...hello, tools: [mine, own] })).status).toBe(200);
      expect((await chatOf(beta, hello)).status).toBe(200);
      const [a, b] = seen(s.sim).map((r) => r.body);
      const names = offered(a);
      expect(names.slice(0, 2)).toEqual(['my_tool', `alpha-${ECHO}`]);
      // The caller's definition is kept as sent; alpha's own echo is not added a second time.
      expect(a.tools[1]).toEqual(own);
      expect(names.filter((n) => n === `alpha-${ECHO}`)).toHaveLength(1);
      expect(names).toContain(`alpha-${ADD}`);
      expect(offered(a, 'beta-')).toEqual([]);
      expect(offered(a, 'auto-')).toEqual([]);
      const tool = a.tools.find((t: any) => t.function.name === `alpha-${ADD}`);
      expect(tool.type).toBe('function');
      expect(tool.function.parameters.type).toBe('object');
      expect(offered(b)).toEqual([`beta-${ECHO}`]);
    });

    it('adds the tools in the Responses shape on /v1/responses', async () => {
      const res = await beta.client.post('/v1/responses', { model: 'openai/gpt-4o-mini', input: 'hello' });
      expect(res.status, res.text).toBe(200);
      const body = seen(s.sim)[0].body;
      expect(body.tools).toHaveLength(1);
      expect(body.tools[0]).toMatchObject({ type: 'function', name: `beta-${ECHO}` });
      expect(body.tools[0].parameters.type).toBe('object');
    });

    it('a key without MCP clients sends its body untouched', async () => {
      const none = await createKey(s, { name: 'no-mcp' });
      expect((await chatOf(none, hello)).status).toBe(200);
      expect(seen(s.sim)[0].body.tools).toBeUndefined();
    });

    it('headers narrow the tools and cannot widen them; an empty value offers none', async () => {
      const cases: Array<[Record<string, string>, string[]]> = [
        [{ 'x-gateway-mcp-include-tools': `alpha-${ADD}` }, [`alpha-${ADD}`]],
        [{ 'x-gateway-mcp-include-tools': 'alpha-*' }, offeredAll()],
        [{ 'x-gateway-mcp-include-clients': 'alpha' }, offeredAll()],
        // beta is not alpha-key's: naming it widens nothing.
        [{ 'x-gateway-mcp-include-clients': 'beta' }, []],
        [{ 'x-gateway-mcp-include-tools': `beta-${ECHO},alpha-${ECHO}` }, [`alpha-${ECHO}`]],
        [{ 'x-gateway-mcp-include-tools': '' }, []],
        [{ 'x-gateway-mcp-include-clients': '' }, []],
      ];
      for (const [headers, expected] of cases) {
        s.sim.reset();
        const res = await chatOf(alpha, hello, headers);
        expect(res.status, res.text).toBe(200);
        const body = seen(s.sim)[0].body;
        if (expected.length === 0) expect(body.tools, JSON.stringify(headers)).toBeUndefined();
        else expect(offered(body).sort(), JSON.stringify(headers)).toEqual([...expected].sort());
      }
      function offeredAll(): string[] {
        return alphaTools.map((t) => `alpha-${t}`);
      }
    });
  });

  let alphaTools: string[] = [];
  beforeAll(async () => {
    s.sim.reset();
    await chatOf(alpha, hello);
    alphaTools = offered(seen(s.sim)[0].body, 'alpha-').map((n) => n.slice('alpha-'.length));
    expect(alphaTools).toEqual(expect.arrayContaining([ECHO, ADD]));
  });

  describe('agent mode', () => {
    const usage = { input_tokens: 10, output_tokens: 5 };
    const step = (name: string, args: Record<string, unknown>) => ({
      ok: true as const,
      usage,
      tool_calls: [{ name, arguments: args }],
    });

    async function mcpLogs(llmRequestId: string): Promise<any[]> {
      return vi.waitFor(
        async () => {
          const res = await s.admin.get('/api/mcp-logs', { query: { llm_request_ids: llmRequestId } });
          expect(res.status, res.text).toBe(200);
          const rows = (res.body.logs ?? res.body.data ?? []) as any[];
          expect(rows.every((r) => r.status !== 'processing')).toBe(true);
          return rows;
        },
        { timeout: 5_000, interval: 50 },
      );
    }

    it('runs a chain of three auto-executed calls, then answers with every round summed', async () => {
      const before = (await settledQuota(agent)).budgets.find((b: any) => b.level === 'virtual_key').current_usage;
      s.sim.scenario({
        match: { path: '/chat/completions' },
        responses: [
          step(`auto-${ECHO}`, { text: 'one' }),
          step(`auto-${ADD}`, { a: 1, b: 2 }),
          step(`auto-${ECHO}`, { text: 'three' }),
          { ok: true, usage, text: 'all done' },
        ],
      });
      const res = await chatOf(agent, { messages: [{ role: 'user', content: 'go' }] });
      expect(res.status, res.text).toBe(200);
      expect(res.body.choices[0].message.content).toBe('all done');
      expect(res.body.choices[0].finish_reason).toBe('stop');
      expect(res.body.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 20, total_tokens: 60 });
      const upstream = seen(s.sim).map((r) => r.body);
      expect(upstream).toHaveLength(4);
      // The last round carries the whole conversation: the user turn, then (assistant, tool) three times.
      const last = upstream[3].messages as any[];
      expect(last.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
      expect(last[2].tool_call_id).toBe(last[1].tool_calls[0].id);
      expect(last[2].content).toContain('one');
      expect(last[4].content).toContain('3');
      // Every round offered the tools again.
      for (const body of upstream) expect(offered(body, 'auto-').sort()).toEqual(offered(upstream[0], 'auto-').sort());

      const requestId = res.headers.get('x-request-id')!;
      const rows = await mcpLogs(requestId);
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.llm_request_id === requestId && r.status === 'success')).toBe(true);
      expect(rows.map((r) => r.tool_name).sort()).toEqual([`auto-${ADD}`, `auto-${ECHO}`, `auto-${ECHO}`]);

      // Four request log rows: the request's own, then one per later round pointing at it.
      const rounds = await vi.waitFor(
        async () => {
          const list = await s.admin.get('/api/logs', { query: { virtual_key_ids: agent.id, limit: 100 } });
          const mine = (list.body.logs as any[]).filter(
            (r) => r.id === requestId || r.metadata?.mcp_agent_request_id === requestId,
          );
          expect(mine).toHaveLength(4);
          return mine;
        },
        { timeout: 5_000, interval: 50 },
      );
      expect(rounds.every((r) => r.status === 'success' && r.total_tokens === 15)).toBe(true);
      expect(rounds.map((r) => r.metadata?.mcp_agent_round ?? '0').sort()).toEqual(['0', '1', '2', '3']);

      // The key's budget: the four model rounds (summed in x-gateway-cost-usd) and the three tools' prices.
      const modelCost = Number(res.headers.get('x-gateway-cost-usd'));
      expect(modelCost).toBeGreaterThan(0);
      expect(res.body.usage.cost?.total_cost ?? modelCost).toBeCloseTo(modelCost, 12);
      await vi.waitFor(
        async () => {
          const budget = (await settledQuota(agent)).budgets.find((b: any) => b.level === 'virtual_key');
          expect(budget.current_usage - before).toBeCloseTo(modelCost + 0.04, 9);
        },
        { timeout: 5_000, interval: 50 },
      );
    });

    it('gives the model a failed call as its result text, and logs the failure', async () => {
      s.sim.scenario({
        match: { path: '/chat/completions' },
        responses: [step('auto-fail', {}), { ok: true, usage, text: 'sorry' }],
      });
      const res = await chatOf(agent, { messages: [{ role: 'user', content: 'try' }] });
      expect(res.status, res.text).toBe(200);
      expect(res.body.choices[0].message.content).toBe('sorry');
      const last = seen(s.sim)[1].body.messages as any[];
      expect(last[2]).toMatchObject({ role: 'tool', content: 'this tool failed' });
      const [row] = await mcpLogs(res.headers.get('x-request-id')!);
      expect(row).toMatchObject({ tool_name: 'auto-fail', status: 'error' });
    });

    it(`stops after max_agent_depth (${DEPTH}) rounds and answers the last model response as is`, async () => {
      s.sim.scenario({
        match: { path: '/chat/completions' },
        responses: [step(`auto-${ECHO}`, { text: 'again' })],
        repeat: true,
      });
      const res = await chatOf(agent, { messages: [{ role: 'user', content: 'loop' }] });
      expect(res.status, res.text).toBe(200);
      expect(res.body.choices[0].finish_reason).toBe('tool_calls');
      expect(res.body.choices[0].message.tool_calls[0].function.name).toBe(`auto-${ECHO}`);
      expect(seen(s.sim)).toHaveLength(DEPTH + 1);
      expect(res.body.usage.prompt_tokens).toBe(10 * (DEPTH + 1));
      expect(await mcpLogs(res.headers.get('x-request-id')!)).toHaveLength(DEPTH);
    });

    it('returns calls of tools that are not auto-executable to the caller', async () => {
      s.sim.scenario({
        match: { path: '/chat/completions' },
        responses: [
          { ok: true, usage, tool_calls: [{ name: `manual-${ECHO}`, arguments: { text: 'x' } }] },
          // a mix: add is auto, echo is not: nothing runs.
          {
            ok: true,
            usage,
            tool_calls: [
              { name: `manual-${ADD}`, arguments: { a: 1, b: 1 } },
              { name: `manual-${ECHO}`, arguments: { text: 'y' } },
            ],
          },
        ],
      });
      for (const expected of [[`manual-${ECHO}`], [`manual-${ADD}`, `manual-${ECHO}`]]) {
        const res = await chatOf(manual, hello);
        expect(res.status, res.text).toBe(200);
        expect(res.body.choices[0].finish_reason).toBe('tool_calls');
        expect(res.body.choices[0].message.tool_calls.map((c: any) => c.function.name)).toEqual(expected);
      }
      expect(seen(s.sim)).toHaveLength(2);
    });

    it('does not execute tool calls of a streaming request', async () => {
      s.sim.scenario({ match: { path: '/chat/completions' }, responses: [step(`auto-${ECHO}`, { text: 's' })] });
      const res: HttpResult = await chatOf(agent, { ...hello, stream: true });
      expect(res.status, res.text).toBe(200);
      const chunks = sseMessages(res.text)
        .filter((m) => m.data !== '[DONE]')
        .map((m) => JSON.parse(m.data));
      const names = chunks.flatMap((c) => (c.choices?.[0]?.delta?.tool_calls ?? []).map((t: any) => t.function?.name));
      expect(names.filter(Boolean)).toEqual([`auto-${ECHO}`]);
      expect(chunks.some((c) => c.choices?.[0]?.finish_reason === 'tool_calls')).toBe(true);
      const upstream = seen(s.sim);
      expect(upstream).toHaveLength(1);
      expect(offered(upstream[0].body, 'auto-').length).toBeGreaterThan(0);
      expect(await mcpLogs(res.headers.get('x-request-id')!)).toEqual([]);
    });

    it('runs on /v1/responses too: function_call items, then function_call_output items in input', async () => {
      s.sim.scenario({
        match: { path: '/responses' },
        responses: [step(`auto-${ADD}`, { a: 2, b: 5 }), { ok: true, usage, text: 'seven' }],
      });
      const res = await agent.client.post('/v1/responses', { model: 'openai/gpt-4o-mini', input: 'add them' });
      expect(res.status, res.text).toBe(200);
      const text = (res.body.output as any[])
        .filter((o) => o.type === 'message')
        .flatMap((o) => o.content.map((c: any) => c.text))
        .join('');
      expect(text).toBe('seven');
      expect(res.body.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
      const upstream = seen(s.sim).map((r) => r.body);
      expect(upstream).toHaveLength(2);
      const input = upstream[1].input as any[];
      expect(input[0]).toMatchObject({ role: 'user', content: 'add them' });
      expect(input[1]).toMatchObject({ type: 'function_call', name: `auto-${ADD}` });
      expect(input[2]).toMatchObject({ type: 'function_call_output', call_id: input[1].call_id });
      expect(input[2].output).toContain('7');
      expect(await mcpLogs(res.headers.get('x-request-id')!)).toHaveLength(1);
    });

    it('runs through the Responses bridge on a chat-only provider', async () => {
      s.sim.scenario({
        match: { family: 'anthropic' },
        responses: [step(`auto-${ECHO}`, { text: 'bridged' }), { ok: true, usage, text: 'over' }],
      });
      const res = await agent.client.post('/v1/responses', {
        model: 'anthropic/claude-3-5-haiku-latest',
        input: 'bridge',
        max_output_tokens: 64,
      });
      expect(res.status, res.text).toBe(200);
      expect(JSON.stringify(res.body.output)).toContain('over');
      const upstream = seen(s.sim, { family: 'anthropic' }).map((r) => r.body);
      expect(upstream).toHaveLength(2);
      expect(JSON.stringify(upstream[1].messages)).toContain('tool_result');
    });
  });
});
