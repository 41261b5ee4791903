/**
 * The Responses API on a provider without `/responses` (the router uses this when the adapter's `kinds` lacks
 * `responses`): the request goes upstream as a chat completion and the answer comes back as a Responses object, or
 * as its typed stream events.
 *
 *   chat body  = responsesToChatRequest(body)                 // then adapter.buildRequest('chat', …)
 *   unary      = chatToResponsesResponse(chatBody, body, usage)
 *   stream     = new ChatToResponsesStream(body); push(chunk) per chat chunk; finish(usage) or fail(error)
 */
export { responsesToChatRequest } from './responses-to-chat.js';
export { chatToResponsesResponse } from './chat-to-responses.js';
export { ChatToResponsesStream, type ChatToResponsesStreamOptions } from './chat-to-responses-stream.js';
export type { ResponsesObject, ResponsesOutputItem, ResponsesStreamEvent } from './responses-wire.types.js';
