import { describe, expect, it } from 'vitest';
import type { ExposedTool } from '../../src/modules/mcp/mcp-contract.js';
import {
  answerToolCalls,
  callArguments,
  continueConversation,
  injectTools,
  narrowTools,
  toolResultText,
} from '../../src/modules/mcp/tools/tool-injection.js';
import { addUsage } from '../../src/modules/inference/v1/inference-agent.js';

function tool(client: string, name: string, autoExecute = false): ExposedTool {
  return {
    name: `${client}-${name}`,
    clientId: `${client}-id`,
    clientName: client,
    tool: { name, description: `${name} tool`, inputSchema: { type: 'object' } },
    autoExecute,
    costUsd: 0,
    timeoutMs: 30_000,
  };
}

const TOOLS = [tool('a', 'x'), tool('a', 'y'), tool('b', 'x')];
const names = (tools: readonly ExposedTool[]) => tools.map((t) => t.name);

describe('tool injection (data in, data out)', () => {
  it('narrows by clients and tools, with client-* and * wildcards; empty values offer none', () => {
    expect(narrowTools(TOOLS, {})).toBe(TOOLS);
    expect(names(narrowTools(TOOLS, { 'x-gateway-mcp-include-clients': 'b' }))).toEqual(['b-x']);
    expect(names(narrowTools(TOOLS, { 'x-gateway-mcp-include-tools': 'a-*' }))).toEqual(['a-x', 'a-y']);
    expect(names(narrowTools(TOOLS, { 'x-gateway-mcp-include-tools': '*' }))).toEqual(names(TOOLS));
    expect(names(narrowTools(TOOLS, { 'x-gateway-mcp-include-tools': ' a-y , c-z ' }))).toEqual(['a-y']);
    const both = { 'x-gateway-mcp-include-clients': 'a', 'x-gateway-mcp-include-tools': 'b-x,a-x' };
    expect(names(narrowTools(TOOLS, both))).toEqual(['a-x']);
    expect(narrowTools(TOOLS, { 'x-gateway-mcp-include-tools': '' })).toEqual([]);
    expect(narrowTools(TOOLS, { 'x-gateway-mcp-include-clients': ' , ' })).toEqual([]);
  });

  it('appends chat and responses function tools after the caller tools; a caller name wins', () => {
    const chat: Record<string, unknown> = { tools: [{ type: 'function', function: { name: 'a-x' } }] };
    expect(names(injectTools('chat', chat, TOOLS))).toEqual(['a-y', 'b-x']);
    expect(chat.tools).toEqual([
      { type: 'function', function: { name: 'a-x' } },
      { type: 'function', function: { name: 'a-y', description: 'y tool', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'b-x', description: 'x tool', parameters: { type: 'object' } } },
    ]);
    const responses: Record<string, unknown> = { input: 'hi' };
    injectTools('responses', responses, [TOOLS[0]!]);
    expect(responses.tools).toEqual([
      { type: 'function', name: 'a-x', description: 'x tool', parameters: { type: 'object' } },
    ]);
  });

  it('reads tool calls of one chat choice or of responses function_call items', () => {
    const call = { id: 'c1', type: 'function', function: { name: 'a-x', arguments: '{"q":1}' } };
    const choice = { index: 0, message: { role: 'assistant', content: null, tool_calls: [call] } };
    expect(answerToolCalls('chat', { choices: [choice] })).toEqual([{ id: 'c1', name: 'a-x', arguments: '{"q":1}' }]);
    expect(answerToolCalls('chat', { choices: [choice, choice] })).toEqual([]);
    const output = [
      { type: 'message', content: [] },
      { type: 'function_call', call_id: 'k', name: 'b-x', arguments: '{}' },
    ];
    expect(answerToolCalls('responses', { output })).toEqual([{ id: 'k', name: 'b-x', arguments: '{}' }]);
  });

  it('refuses arguments that are not a JSON object, and renders results as text', () => {
    expect(callArguments({ id: '1', name: 'a-x', arguments: '' })).toEqual({});
    expect(callArguments({ id: '1', name: 'a-x', arguments: '[1]' })).toMatch(/must be a JSON object/);
    expect(callArguments({ id: '1', name: 'a-x', arguments: '{' })).toMatch(/not valid JSON/);
    expect(
      toolResultText({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\nb');
    expect(toolResultText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  });

  it('continues a responses conversation from a string input', () => {
    const calls = [{ id: 'k', name: 'b-x', arguments: '{}' }];
    const next = continueConversation('responses', { model: 'm', input: 'hi' }, {}, calls, ['out']);
    expect(next.input).toEqual([
      { role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'k', name: 'b-x', arguments: '{}' },
      { type: 'function_call_output', call_id: 'k', output: 'out' },
    ]);
  });

  it('sums usages member by member', () => {
    const a = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: { total_cost: 0.5 } };
    const b = {
      prompt_tokens: 10,
      completion_tokens: 20,
      total_tokens: 30,
      prompt_tokens_details: { cached_read_tokens: 4 },
      cost: { total_cost: 0.25, input_tokens_cost: 0.1 },
    };
    expect(addUsage(a, b)).toEqual({
      prompt_tokens: 11,
      completion_tokens: 22,
      total_tokens: 33,
      prompt_tokens_details: { cached_read_tokens: 4 },
      cost: { total_cost: 0.75, input_tokens_cost: 0.1 },
    });
    expect(addUsage(undefined, a)).toBe(a);
  });
});
