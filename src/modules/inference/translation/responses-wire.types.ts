import type { Json } from '../providers/shared/provider-adapter.js';
import type { ResponsesWireUsage } from '../providers/openai/openai-usage.js';

/**
 * The Responses API objects the chat bridge emits, typed as OpenAI sends them (the official SDK's types accept
 * them; test/inference/responses-bridge.spec.ts checks that at compile time).
 */

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface ResponsesUrlCitation {
  type: 'url_citation';
  start_index: number;
  end_index: number;
  title: string;
  url: string;
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: ResponsesUrlCitation[];
  logprobs: [];
}

export interface ResponsesRefusal {
  type: 'refusal';
  refusal: string;
}

export interface ResponsesReasoningText {
  type: 'reasoning_text';
  text: string;
}

export interface ResponsesMessageItem {
  id: string;
  type: 'message';
  role: 'assistant';
  status: ItemStatus;
  content: Array<ResponsesOutputText | ResponsesRefusal>;
}

export interface ResponsesFunctionCallItem {
  id: string;
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
}

/** Reasoning text of providers that stream it in chat (`reasoning_content` / `reasoning`). */
export interface ResponsesReasoningItem {
  id: string;
  type: 'reasoning';
  summary: [];
  content: ResponsesReasoningText[];
  status: ItemStatus;
}

export type ResponsesOutputItem = ResponsesMessageItem | ResponsesFunctionCallItem | ResponsesReasoningItem;

export interface ResponsesObject {
  id: string;
  object: 'response';
  created_at: number;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  background: false;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: ResponsesOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: null;
  /** Domain access programs the request ran under (the openai SDK's field); none through the gateway. */
  access_programs: null;
  /** Echo of the request's `reasoning` (effort as asked). */
  reasoning: { effort: string | null; summary: string | null };
  store: false;
  temperature: number | null;
  /** Echo of the request's `text` (default `{ format: { type: "text" } }`). */
  text: Json;
  /** Echo of the request's `tool_choice` (default `"auto"`). */
  tool_choice: unknown;
  /** Echo of the request's `tools`. */
  tools: unknown[];
  top_p: number | null;
  truncation: 'disabled';
  metadata: Record<string, string>;
  user?: string;
  /** Absent in the `response.created` / `response.in_progress` snapshots. */
  usage?: ResponsesWireUsage;
}

interface Sequenced {
  sequence_number: number;
}

interface InItem extends Sequenced {
  item_id: string;
  output_index: number;
}

interface InPart extends InItem {
  content_index: number;
}

export type ResponsesEventData =
  | (Sequenced & {
      type: 'response.created' | 'response.in_progress' | 'response.completed' | 'response.incomplete';
      response: ResponsesObject;
    })
  | (Sequenced & { type: 'response.failed'; response: ResponsesObject })
  | (Sequenced & {
      type: 'response.output_item.added' | 'response.output_item.done';
      output_index: number;
      item: ResponsesOutputItem;
    })
  | (InPart & {
      type: 'response.content_part.added' | 'response.content_part.done';
      part: ResponsesOutputText | ResponsesRefusal | ResponsesReasoningText;
    })
  | (InPart & { type: 'response.output_text.delta'; delta: string; logprobs: [] })
  | (InPart & { type: 'response.output_text.done'; text: string; logprobs: [] })
  | (InPart & { type: 'response.refusal.delta'; delta: string })
  | (InPart & { type: 'response.refusal.done'; refusal: string })
  | (InPart & { type: 'response.reasoning_text.delta'; delta: string })
  | (InPart & { type: 'response.reasoning_text.done'; text: string })
  | (InItem & { type: 'response.function_call_arguments.delta'; delta: string })
  | (InItem & { type: 'response.function_call_arguments.done'; arguments: string; name: string });

/** One SSE event: `event: <event>` then `data: <JSON of data>` (data.type repeats the event name). */
export interface ResponsesStreamEvent {
  event: ResponsesEventData['type'];
  data: ResponsesEventData;
}
