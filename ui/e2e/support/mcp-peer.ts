// A real MCP server (official SDK, loopback) offering `echo`, `add`, `fail` and `slow`: the tools agent mode calls.
export { startHttpPeer, type McpPeer } from '../../../test/mcp/mcp-peers';
