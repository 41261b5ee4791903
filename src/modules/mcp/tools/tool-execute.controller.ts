import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VirtualKeyAuth } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { sendRawJson } from '../../../core/http/raw-json.js';
import { McpToolExecutor } from '../mcp-contract.js';
import { McpCallerResolver } from './mcp-caller.js';
import { parseFormat, parseToolCall, renderToolOutput, TOOL_CALL_FORMATS } from './tool-call-formats.js';

const CHAT_TOOL_CALL = {
  title: 'Chat tool call (format=chat)',
  type: 'object',
  required: ['id', 'function'],
  properties: {
    id: { type: 'string', description: 'The tool call id, echoed as tool_call_id' },
    type: { type: 'string', enum: ['function'] },
    function: {
      type: 'object',
      required: ['name', 'arguments'],
      properties: {
        name: { type: 'string', description: 'The exposed tool name, `<client>-<tool>`' },
        arguments: { type: 'string', description: 'The arguments: a string holding a JSON object' },
      },
    },
  },
};
const RESPONSES_FUNCTION_CALL = {
  title: 'Responses function call (format=responses)',
  type: 'object',
  required: ['call_id', 'name', 'arguments'],
  properties: {
    call_id: { type: 'string', description: 'The call id, echoed as call_id' },
    name: { type: 'string', description: 'The exposed tool name, `<client>-<tool>`' },
    arguments: { type: 'string', description: 'The arguments: a string holding a JSON object' },
  },
};
const EXECUTE_BODY_SCHEMA = { oneOf: [CHAT_TOOL_CALL, RESPONSES_FUNCTION_CALL] };
const CHAT_TOOL_MESSAGE = {
  title: 'Chat tool message (format=chat)',
  type: 'object',
  required: ['role', 'content', 'tool_call_id'],
  properties: {
    role: { type: 'string', enum: ['tool'] },
    content: { type: 'string', description: "The tool's output as text (a failed tool's message too)" },
    tool_call_id: { type: 'string', description: 'The id of the call' },
  },
};
const FUNCTION_CALL_OUTPUT = {
  title: 'Responses function call output (format=responses)',
  type: 'object',
  required: ['type', 'call_id', 'output'],
  properties: {
    type: { type: 'string', enum: ['function_call_output'] },
    call_id: { type: 'string', description: 'The call id' },
    output: { type: 'string', description: "The tool's output as text (a failed tool's message too)" },
  },
};

/**
 * Runs one tool call a model asked for, for the calling virtual key, and answers with the message to append to the
 * conversation. A tool that fails still answers 200 (the message says why, so the model can read it); a tool the key
 * may not use answers 403 `tool_blocked`.
 */
@ApiTags('MCP')
@Controller('v1/mcp/tool')
@VirtualKeyAuth({ optional: true })
export class ToolExecuteController {
  constructor(
    private readonly callers: McpCallerResolver,
    private readonly executor: McpToolExecutor,
  ) {}

  @Post('execute')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'executeMcpTool',
    summary: 'Execute a tool call (chat or Responses format) through the MCP client that serves it',
  })
  @ApiQuery({ name: 'format', required: false, enum: TOOL_CALL_FORMATS, description: 'Body format (default chat)' })
  @ApiBody({ schema: EXECUTE_BODY_SCHEMA })
  @ApiOkResponse({
    description:
      'format=chat: { role: "tool", content, tool_call_id }; format=responses: { type: "function_call_output", call_id, output }',
    schema: { oneOf: [CHAT_TOOL_MESSAGE, FUNCTION_CALL_OUTPUT] },
  })
  @ApiErrorResponses(400, 401, 403)
  async execute(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // Who calls first: a caller without a virtual key is refused (401) before anything it sent is read.
    const caller = this.callers.of(request);
    const format = parseFormat((request.query as Record<string, unknown> | undefined)?.format);
    const call = parseToolCall(format, request.body);
    const abort = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) abort.abort(new Error('client disconnected'));
    };
    reply.raw.once('close', onClose);
    try {
      const { result } = await this.executor.execute({
        ...caller,
        name: call.name,
        arguments: call.arguments,
        signal: abort.signal,
      });
      sendRawJson(reply, 200, JSON.stringify(renderToolOutput(format, call.callId, result)));
    } finally {
      reply.raw.off('close', onClose);
    }
  }
}
