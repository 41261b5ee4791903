import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

// The contract's "Usage and cost objects"; an error body carries them as `extra_fields.billed_usage`.

const tokens = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;
const usd = (description: string) => ({ type: Number, minimum: 0, description: `${description}, in USD` }) as const;

@ApiSchema({ name: 'PromptTokensDetails' })
export class PromptTokensDetailsDto {
  @ApiPropertyOptional(tokens('Text input tokens')) text_tokens?: number;
  @ApiPropertyOptional(tokens('Audio input tokens')) audio_tokens?: number;
  @ApiPropertyOptional(tokens('Image input tokens')) image_tokens?: number;

  @ApiPropertyOptional(tokens('Cache-read tokens; already included in prompt_tokens, billed at the cache-read rate'))
  cached_read_tokens?: number;

  @ApiPropertyOptional(
    tokens('Cache-write tokens; already included in prompt_tokens, billed at the cache-creation rate'),
  )
  cached_write_tokens?: number;
}

@ApiSchema({ name: 'CompletionTokensDetails' })
export class CompletionTokensDetailsDto {
  @ApiPropertyOptional(tokens('Text output tokens')) text_tokens?: number;
  @ApiPropertyOptional(tokens('Predicted-output tokens that appeared in the completion'))
  accepted_prediction_tokens?: number;
  @ApiPropertyOptional(tokens('Audio output tokens')) audio_tokens?: number;
  @ApiPropertyOptional(tokens('Citation tokens')) citation_tokens?: number;

  @ApiPropertyOptional({
    ...tokens('Search queries run; deprecated, use tool_usage.web_search.num_requests (removed in 3.0.0)'),
    deprecated: true,
  })
  num_search_queries?: number;

  @ApiPropertyOptional(tokens('Reasoning tokens')) reasoning_tokens?: number;
  @ApiPropertyOptional(tokens('Image output tokens')) image_tokens?: number;
  @ApiPropertyOptional(tokens('Predicted-output tokens that did not appear in the completion'))
  rejected_prediction_tokens?: number;
}

@ApiSchema({ name: 'WebSearchUsage' })
export class WebSearchUsageDto {
  @ApiPropertyOptional(tokens('Billable web search calls')) num_requests?: number;
}

@ApiSchema({ name: 'ToolUsage' })
export class ToolUsageDto {
  @ApiPropertyOptional({ type: () => WebSearchUsageDto, description: 'Web search tool usage' })
  web_search?: WebSearchUsageDto;
}

/** The contract's "Cost" object, named UsageCost so a client does not read it as a price list. */
@ApiSchema({ name: 'UsageCost' })
export class UsageCostDto {
  @ApiPropertyOptional(usd('Cost of the input tokens')) input_tokens_cost?: number;
  @ApiPropertyOptional(usd('Cost of the output tokens')) output_tokens_cost?: number;
  @ApiPropertyOptional(usd('Cost of the reasoning tokens')) reasoning_tokens_cost?: number;
  @ApiPropertyOptional(usd('Cost of the citation tokens')) citation_tokens_cost?: number;
  @ApiPropertyOptional(usd('Cost of the search queries')) search_queries_cost?: number;
  @ApiPropertyOptional(usd('Per-request cost')) request_cost?: number;
  @ApiPropertyOptional(usd('Total cost')) total_cost?: number;
}

@ApiSchema({ name: 'Usage' })
export class UsageDto {
  @ApiPropertyOptional(tokens('Total input tokens, including cache read and write tokens'))
  prompt_tokens?: number;

  @ApiPropertyOptional({ type: () => PromptTokensDetailsDto, description: 'Breakdown of prompt_tokens' })
  prompt_tokens_details?: PromptTokensDetailsDto;

  @ApiPropertyOptional(tokens('Output tokens')) completion_tokens?: number;

  @ApiPropertyOptional({ type: () => CompletionTokensDetailsDto, description: 'Breakdown of completion_tokens' })
  completion_tokens_details?: CompletionTokensDetailsDto;

  @ApiPropertyOptional(tokens('Total tokens billed')) total_tokens?: number;

  @ApiPropertyOptional({ type: () => ToolUsageDto, description: 'Billable tool calls' })
  tool_usage?: ToolUsageDto;

  @ApiPropertyOptional({ type: () => UsageCostDto, description: 'Cost of this usage' })
  cost?: UsageCostDto;
}
