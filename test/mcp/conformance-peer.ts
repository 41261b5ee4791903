import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** A 1×1 transparent PNG and a tiny WAV header, base64. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
const RESOURCE = {
  uri: 'test://embedded-resource',
  mimeType: 'text/plain',
  text: 'This is an embedded resource content.',
};
const NO_ARGS = { type: 'object' as const, properties: {} };

/**
 * The tools the MCP conformance suite (0.1.13) calls, served by a real SDK server: what the gateway relays is then
 * checked by the suite through `/mcp/{client}`. The tools that need the server to reach back to the suite's client
 * mid-call (logging, progress, sampling, elicitation) answer without doing so: the gateway cannot relay that.
 */
const TOOLS: Array<Tool & { result: () => CallToolResult }> = [
  {
    name: 'test_simple_text',
    description: 'Returns simple text content',
    inputSchema: NO_ARGS,
    result: () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }),
  },
  {
    name: 'test_image_content',
    description: 'Returns image content',
    inputSchema: NO_ARGS,
    result: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  },
  {
    name: 'test_audio_content',
    description: 'Returns audio content',
    inputSchema: NO_ARGS,
    result: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  },
  {
    name: 'test_embedded_resource',
    description: 'Returns an embedded resource',
    inputSchema: NO_ARGS,
    result: () => ({ content: [{ type: 'resource', resource: RESOURCE }] }),
  },
  {
    name: 'test_multiple_content_types',
    description: 'Returns text, image and resource content',
    inputSchema: NO_ARGS,
    result: () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource', resource: { ...RESOURCE, mimeType: 'application/json', text: '{"test":"data"}' } },
      ],
    }),
  },
  {
    name: 'test_error_handling',
    description: 'Always returns an error',
    inputSchema: NO_ARGS,
    result: () => ({
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
      isError: true,
    }),
  },
  {
    name: 'test_tool_with_logging',
    description: 'Would send log notifications during execution',
    inputSchema: NO_ARGS,
    result: () => ({ content: [{ type: 'text', text: 'Tool with logging executed successfully' }] }),
  },
  {
    name: 'test_tool_with_progress',
    description: 'Would report progress notifications',
    inputSchema: NO_ARGS,
    result: () => ({ content: [{ type: 'text', text: 'Tool with progress executed successfully' }] }),
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    result: () => ({ content: [{ type: 'text', text: 'ok' }] }),
  },
];

export interface ConformancePeer {
  url: string;
  close(): Promise<void>;
}

/** A stateless Streamable HTTP server at `/mcp` on loopback. */
export async function startConformancePeer(): Promise<ConformancePeer> {
  const http: HttpServer = createServer((req, res) => {
    const server = new Server({ name: 'conformance-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map(({ result: _r, ...tool }) => tool) }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const tool = TOOLS.find((t) => t.name === request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
      return tool.result();
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void server.close());
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
