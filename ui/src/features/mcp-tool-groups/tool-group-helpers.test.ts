import { describe, expect, it } from 'vitest';
import {
  groupsOfTool,
  toolLabel,
  toolPickerData,
  toolsOfValues,
  toolsWith,
  toolValue,
  type ToolGroupView,
} from './tool-group-helpers';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const schema = { type: 'object' };
const clients = [
  {
    id: A,
    name: 'alpha',
    tools: [
      { name: 'add', input_schema: schema },
      { name: 'echo', input_schema: schema },
    ],
  },
  { id: B, name: 'beta', tools: [{ name: 'a/b', input_schema: schema }] },
];
const group = (name: string, tools: ToolGroupView['tools']): ToolGroupView => ({
  id: name,
  name,
  description: '',
  tools,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
});

describe('tool picker values', () => {
  it('round-trips a tool whose name holds a slash', () => {
    const tool = { mcp_client_id: B, tool_name: 'a/b' };
    expect(toolsOfValues([toolValue(tool)])).toEqual([tool]);
  });

  it('labels tools as models see them, or by client id when the client is unknown', () => {
    expect(toolLabel({ mcp_client_id: A, tool_name: 'add' }, clients)).toBe('alpha-add');
    expect(toolLabel({ mcp_client_id: 'gone', tool_name: 'x' }, clients)).toBe('gone-x');
  });

  it('offers every listed tool by client, and keeps held tools no client lists now, marked', () => {
    const data = toolPickerData(clients, [
      { mcp_client_id: A, tool_name: 'add' },
      { mcp_client_id: A, tool_name: 'multiply' },
      { mcp_client_id: 'gone', tool_name: 'x' },
    ]);
    expect(data).toEqual([
      {
        group: 'alpha',
        items: [
          { value: `${A}/add`, label: 'alpha-add' },
          { value: `${A}/echo`, label: 'alpha-echo' },
          { value: `${A}/multiply`, label: 'alpha-multiply (not listed now)' },
        ],
      },
      { group: 'beta', items: [{ value: `${B}/a/b`, label: 'beta-a/b' }] },
      { group: 'Other', items: [{ value: 'gone/x', label: 'gone-x (not listed now)' }] },
    ]);
  });
});

describe('membership', () => {
  const math = group('math', [
    { mcp_client_id: A, tool_name: 'add' },
    { mcp_client_id: B, tool_name: 'add' },
  ]);
  const other = group('other', [{ mcp_client_id: A, tool_name: 'echo' }]);

  it('finds the groups of one tool of one client', () => {
    expect(groupsOfTool([math, other], A, 'add').map((g) => g.name)).toEqual(['math']);
    expect(groupsOfTool([math, other], B, 'echo')).toEqual([]);
  });

  it('adds a tool once and removes only that client’s tool', () => {
    expect(toolsWith(other, { mcp_client_id: A, tool_name: 'add' }, true)).toEqual([
      { mcp_client_id: A, tool_name: 'echo' },
      { mcp_client_id: A, tool_name: 'add' },
    ]);
    expect(toolsWith(math, { mcp_client_id: A, tool_name: 'add' }, true)).toHaveLength(2);
    expect(toolsWith(math, { mcp_client_id: A, tool_name: 'add' }, false)).toEqual([
      { mcp_client_id: B, tool_name: 'add' },
    ]);
  });
});
