// A stdio MCP server for tests, run with plain node (no TS loader): the gateway spawns it.
// Tools: echo {text}, add {a,b}, fail (isError), slow {ms}, pid (the process id, to check it is killed),
// env {name} (a variable of its environment, to check stdio_config.envs).
// With PID_DIR in its environment it writes an empty file named after its pid there (to count the children spawned).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

if (process.env.PID_DIR) writeFileSync(join(process.env.PID_DIR, String(process.pid)), '');

const server = new McpServer({ name: 'stdio-peer', version: '1.0.0' });
const text = (t) => ({ content: [{ type: 'text', text: String(t) }] });
server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() } }, ({ text: t }) =>
  text(t),
);
server.registerTool(
  'add',
  { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
  ({ a, b }) => text(a + b),
);
server.registerTool('fail', { description: 'Always fails' }, () => ({ ...text('this tool failed'), isError: true }));
server.registerTool('slow', { description: 'Answers after ms', inputSchema: { ms: z.number() } }, async ({ ms }) => {
  await new Promise((r) => setTimeout(r, ms));
  return text(`slept ${ms}`);
});
server.registerTool('pid', { description: 'Process id' }, () => text(process.pid));
server.registerTool('env', { description: 'An environment variable', inputSchema: { name: z.string() } }, ({ name }) =>
  text(process.env[name] ?? ''),
);
await server.connect(new StdioServerTransport());
