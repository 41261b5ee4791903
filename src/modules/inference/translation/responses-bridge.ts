/**
 * The Responses API on a provider without `/responses` (the router uses this when the adapter's `kinds` lacks
 * `responses`): the request goes upstream as a chat completion and the answer comes back as a Responses object, or
 * as its typed stream events.
 *
 *   chat body  = responsesToChatRequest(body)                 // then adapter.buildRequest('chat', …)
 *   unary      = chatToResponsesResponse(chatBody, body, usage)
 *   stream     = new ChatToResponsesStream(body); push(chunk) per chat chunk; finish(usage) or fail(error)
 *
 * The other way, for a model served through `/responses` only (OpenCode's `gpt-*`), the adapter bridges a chat request:
 *
 *   responses body = chatToResponsesRequest(chatBody)          // then buildRequest('responses', …)
 *   unary          = responsesToChatResponse(responsesBody)
 *   stream         = new ResponsesAsChatStreamDecoder(responsesDecoder, model)
 */
export { responsesToChatRequest } from './responses-to-chat.js';
export { chatToResponsesResponse } from './chat-to-responses.js';
export { ChatToResponsesStream, type ChatToResponsesStreamOptions } from './chat-to-responses-stream.js';
export type { ResponsesObject, ResponsesOutputItem, ResponsesStreamEvent } from './responses-wire.types.js';
export { chatToResponsesRequest } from './chat-to-responses-request.js';
export { responsesToChatResponse } from './responses-to-chat-response.js';
export { ResponsesAsChatStreamDecoder, ResponsesToChatStream } from './responses-to-chat-stream.js';
