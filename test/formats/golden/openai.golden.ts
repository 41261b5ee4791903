import type { CellGolden, Target } from './golden-kit.js';

/**
 * /openai (OpenAI chat completions) in, each provider out: what the simulator received and what the client got, written out.
 * Generated ids read `<prefix>#<n>` (numbered by first appearance), clocks `CLOCK` (see `normaliseIds`).
 */
export const OPENAI_GOLDEN: Record<Target, CellGolden> = {
  openai: {
    unary: {
      path: '/openai/v1/chat/completions',
      upstream: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: 'What is the weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_golden_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_golden_1', content: 'sunny, 21C' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
          {
            type: 'function',
            function: {
              name: 'get_time',
              description: 'Local time of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
        tool_choice: 'auto',
        reasoning_effort: 'low',
        max_tokens: 2048,
        temperature: 1,
      },
      answer: {
        id: 'chatcmpl-#1',
        object: 'chat.completion',
        created: 'CLOCK',
        model: 'gpt-4o-mini',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              annotations: [],
              tool_calls: [
                { id: 'call_#2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
              ],
            },
            logprobs: null,
            finish_reason: 'tool_calls',
          },
        ],
        usage: {
          prompt_tokens: 13,
          completion_tokens: 2,
          total_tokens: 15,
          prompt_tokens_details: { audio_tokens: 0, cached_read_tokens: 0, cached_tokens: 0 },
          completion_tokens_details: {
            accepted_prediction_tokens: 0,
            audio_tokens: 0,
            reasoning_tokens: 0,
            rejected_prediction_tokens: 0,
          },
          cost: {
            input_tokens_cost: 1.95e-6,
            output_tokens_cost: 1.2e-6,
            reasoning_tokens_cost: 0,
            citation_tokens_cost: 0,
            search_queries_cost: 0,
            request_cost: 0,
            total_cost: 3.15e-6,
          },
        },
        service_tier: 'default',
        system_fingerprint: 'fp_sim',
      },
    },
    toolStream: {
      path: '/openai/v1/chat/completions',
      upstream: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: 'call get_weather {"city":"Paris"}' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
          {
            type: 'function',
            function: {
              name: 'get_time',
              description: 'Local time of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
        reasoning_effort: 'low',
        max_tokens: 2048,
        stream: true,
        stream_options: { include_usage: true },
      },
      answer: [
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [
            {
              index: 0,
              delta: {
                role: 'assistant',
                content: null,
                tool_calls: [
                  { index: 0, id: 'call_#2', type: 'function', function: { name: 'get_weather', arguments: '' } },
                ],
              },
              logprobs: null,
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Par' } }] },
              logprobs: null,
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: 'is"}' } }] },
              logprobs: null,
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          choices: [],
          usage: {
            prompt_tokens: 8,
            completion_tokens: 2,
            total_tokens: 10,
            prompt_tokens_details: { audio_tokens: 0, cached_read_tokens: 0, cached_tokens: 0 },
            completion_tokens_details: {
              accepted_prediction_tokens: 0,
              audio_tokens: 0,
              reasoning_tokens: 0,
              rejected_prediction_tokens: 0,
            },
            cost: {
              input_tokens_cost: 1.2e-6,
              output_tokens_cost: 1.2e-6,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 2.4e-6,
            },
          },
        },
        '[DONE]',
      ],
    },
    textStream: {
      path: '/openai/v1/chat/completions',
      upstream: {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'golden words' }],
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
      },
      answer: [
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [
            { index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [{ index: 0, delta: { content: 'echo:' }, logprobs: null, finish_reason: null }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [{ index: 0, delta: { content: ' golden' }, logprobs: null, finish_reason: null }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [{ index: 0, delta: { content: ' words' }, logprobs: null, finish_reason: null }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          service_tier: 'default',
          system_fingerprint: 'fp_sim',
          choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gpt-4o-mini',
          choices: [],
          usage: {
            prompt_tokens: 2,
            completion_tokens: 3,
            total_tokens: 5,
            prompt_tokens_details: { audio_tokens: 0, cached_read_tokens: 0, cached_tokens: 0 },
            completion_tokens_details: {
              accepted_prediction_tokens: 0,
              audio_tokens: 0,
              reasoning_tokens: 0,
              rejected_prediction_tokens: 0,
            },
            cost: {
              input_tokens_cost: 3e-7,
              output_tokens_cost: 1.8e-6,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 2.1e-6,
            },
          },
        },
        '[DONE]',
      ],
    },
  },
  anthropic: {
    unary: {
      path: '/anthropic/v1/messages',
      upstream: {
        model: 'claude-sonnet-4-5',
        system: 'You are a careful agent.',
        messages: [
          { role: 'user', content: 'What is the weather in Paris?' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'call_golden_1', name: 'get_weather', input: { city: 'Paris' } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_golden_1', content: 'sunny, 21C' }] },
        ],
        max_tokens: 2048,
        temperature: 1,
        tools: [
          {
            name: 'get_weather',
            description: 'Weather of a city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          {
            name: 'get_time',
            description: 'Local time of a city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        ],
        tool_choice: { type: 'auto' },
      },
      answer: {
        id: 'msg_#1',
        object: 'chat.completion',
        created: 'CLOCK',
        model: 'claude-sonnet-4-5',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'toolu_#2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
              ],
            },
            finish_reason: 'tool_calls',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: 13,
          completion_tokens: 2,
          total_tokens: 15,
          cost: {
            input_tokens_cost: 3.9e-5,
            output_tokens_cost: 3e-5,
            reasoning_tokens_cost: 0,
            citation_tokens_cost: 0,
            search_queries_cost: 0,
            request_cost: 0,
            total_cost: 6.9e-5,
          },
        },
      },
    },
    toolStream: {
      path: '/anthropic/v1/messages',
      upstream: {
        model: 'claude-sonnet-4-5',
        system: 'You are a careful agent.',
        messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: [
          {
            name: 'get_weather',
            description: 'Weather of a city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          {
            name: 'get_time',
            description: 'Local time of a city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        ],
        stream: true,
      },
      answer: [
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [
            { index: 0, delta: { reasoning_content: 'Let me think about this request.' }, finish_reason: null },
          ],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [
            {
              index: 0,
              delta: {
                thinking_blocks: [
                  { type: 'thinking', thinking: '', signature: 'EqQBCkYIARgCIkBzaW11bGF0b3Igc2lnbmF0dXJl' },
                ],
              },
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  { index: 0, id: 'toolu_#2', type: 'function', function: { name: 'get_weather', arguments: '' } },
                ],
              },
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Par' } }] },
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'is"}' } }] }, finish_reason: null },
          ],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [],
          usage: {
            prompt_tokens: 8,
            completion_tokens: 2,
            total_tokens: 10,
            cost: {
              input_tokens_cost: 2.4e-5,
              output_tokens_cost: 3e-5,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 5.4e-5,
            },
          },
        },
        '[DONE]',
      ],
    },
    textStream: {
      path: '/anthropic/v1/messages',
      upstream: {
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'golden words' }],
        max_tokens: 64,
        stream: true,
      },
      answer: [
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [{ index: 0, delta: { content: 'echo:' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [{ index: 0, delta: { content: ' golden' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [{ index: 0, delta: { content: ' words' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          usage: null,
        },
        {
          id: 'msg_#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'claude-sonnet-4-5',
          choices: [],
          usage: {
            prompt_tokens: 2,
            completion_tokens: 3,
            total_tokens: 5,
            cost: {
              input_tokens_cost: 6e-6,
              output_tokens_cost: 4.5e-5,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 5.1000000000000006e-5,
            },
          },
        },
        '[DONE]',
      ],
    },
  },
  gemini: {
    unary: {
      path: '/gemini/v1beta/models/gemini-2.5-flash:generateContent',
      upstream: {
        contents: [
          { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny, 21C' } } }] },
        ],
        systemInstruction: { parts: [{ text: 'You are a careful agent.' }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
              {
                name: 'get_time',
                description: 'Local time of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: {
          maxOutputTokens: 2048,
          temperature: 1,
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        },
      },
      answer: {
        id: '#1',
        object: 'chat.completion',
        created: 'CLOCK',
        model: 'gemini-2.5-flash',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_0', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
              ],
            },
            finish_reason: 'tool_calls',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: 13,
          completion_tokens: 2,
          total_tokens: 15,
          prompt_tokens_details: { text_tokens: 13 },
          cost: {
            input_tokens_cost: 3.9e-6,
            output_tokens_cost: 5e-6,
            reasoning_tokens_cost: 0,
            citation_tokens_cost: 0,
            search_queries_cost: 0,
            request_cost: 0,
            total_cost: 8.9e-6,
          },
        },
      },
    },
    toolStream: {
      path: '/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
        contents: [{ role: 'user', parts: [{ text: 'call get_weather {"city":"Paris"}' }] }],
        systemInstruction: { parts: [{ text: 'You are a careful agent.' }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
              {
                name: 'get_time',
                description: 'Local time of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
        generationConfig: { maxOutputTokens: 2048, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      },
      answer: [
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [
            {
              index: 0,
              delta: {
                role: 'assistant',
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_0',
                    type: 'function',
                    function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                  },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [],
          usage: {
            prompt_tokens: 8,
            completion_tokens: 2,
            total_tokens: 10,
            prompt_tokens_details: { text_tokens: 8 },
            cost: {
              input_tokens_cost: 2.4e-6,
              output_tokens_cost: 5e-6,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 7.4e-6,
            },
          },
        },
        '[DONE]',
      ],
    },
    textStream: {
      path: '/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
        contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
        generationConfig: { maxOutputTokens: 64 },
      },
      answer: [
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [{ index: 0, delta: { role: 'assistant', content: 'echo:' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [{ index: 0, delta: { content: ' golden' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [{ index: 0, delta: { content: ' words' }, finish_reason: 'stop' }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [],
          usage: {
            prompt_tokens: 2,
            completion_tokens: 3,
            total_tokens: 5,
            prompt_tokens_details: { text_tokens: 2 },
            cost: {
              input_tokens_cost: 6e-7,
              output_tokens_cost: 7.5e-6,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 8.1e-6,
            },
          },
        },
        '[DONE]',
      ],
    },
  },
  bedrock: {
    unary: {
      path: '/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
      upstream: {
        messages: [
          { role: 'user', content: [{ text: 'What is the weather in Paris?' }] },
          {
            role: 'assistant',
            content: [{ toolUse: { toolUseId: 'call_golden_1', name: 'get_weather', input: { city: 'Paris' } } }],
          },
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 'call_golden_1', content: [{ text: 'sunny, 21C' }] } }],
          },
        ],
        system: [{ text: 'You are a careful agent.' }],
        inferenceConfig: { maxTokens: 2048, temperature: 1 },
        toolConfig: {
          tools: [
            {
              toolSpec: {
                name: 'get_weather',
                description: 'Weather of a city',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
              },
            },
            {
              toolSpec: {
                name: 'get_time',
                description: 'Local time of a city',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
              },
            },
          ],
          toolChoice: { auto: {} },
        },
      },
      answer: {
        id: 'chatcmpl-#1',
        object: 'chat.completion',
        created: 'CLOCK',
        model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'tooluse_#2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
              ],
            },
            finish_reason: 'tool_calls',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: 13,
          completion_tokens: 2,
          total_tokens: 15,
          cost: {
            input_tokens_cost: 3.9e-5,
            output_tokens_cost: 3e-5,
            reasoning_tokens_cost: 0,
            citation_tokens_cost: 0,
            search_queries_cost: 0,
            request_cost: 0,
            total_cost: 6.9e-5,
          },
        },
      },
    },
    toolStream: {
      path: '/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream',
      upstream: {
        messages: [{ role: 'user', content: [{ text: 'call get_weather {"city":"Paris"}' }] }],
        system: [{ text: 'You are a careful agent.' }],
        inferenceConfig: { maxTokens: 2048 },
        toolConfig: {
          tools: [
            {
              toolSpec: {
                name: 'get_weather',
                description: 'Weather of a city',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
              },
            },
            {
              toolSpec: {
                name: 'get_time',
                description: 'Local time of a city',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
              },
            },
          ],
        },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      },
      answer: [
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [
            { index: 0, delta: { reasoning_content: 'Let me think about this request.' }, finish_reason: null },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [
            {
              index: 0,
              delta: {
                thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'c2ltdWxhdG9yIHNpZ25hdHVyZQ==' }],
              },
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  { index: 0, id: 'tooluse_#2', type: 'function', function: { name: 'get_weather', arguments: '' } },
                ],
              },
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Par' } }] },
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'is"}' } }] }, finish_reason: null },
          ],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [],
          usage: {
            prompt_tokens: 8,
            completion_tokens: 2,
            total_tokens: 10,
            cost: {
              input_tokens_cost: 2.4e-5,
              output_tokens_cost: 3e-5,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 5.4e-5,
            },
          },
        },
        '[DONE]',
      ],
    },
    textStream: {
      path: '/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream',
      upstream: {
        messages: [{ role: 'user', content: [{ text: 'golden words' }] }],
        inferenceConfig: { maxTokens: 64 },
      },
      answer: [
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [{ index: 0, delta: { content: 'echo:' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [{ index: 0, delta: { content: ' golden' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [{ index: 0, delta: { content: ' words' }, finish_reason: null }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          usage: null,
        },
        {
          id: 'chatcmpl-#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          choices: [],
          usage: {
            prompt_tokens: 2,
            completion_tokens: 3,
            total_tokens: 5,
            cost: {
              input_tokens_cost: 6e-6,
              output_tokens_cost: 4.5e-5,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 5.1000000000000006e-5,
            },
          },
        },
        '[DONE]',
      ],
    },
  },
  vertex: {
    unary: {
      path: '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
      upstream: {
        contents: [
          { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny, 21C' } } }] },
        ],
        systemInstruction: { parts: [{ text: 'You are a careful agent.' }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
              {
                name: 'get_time',
                description: 'Local time of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: {
          maxOutputTokens: 2048,
          temperature: 1,
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        },
      },
      answer: {
        id: '#1',
        object: 'chat.completion',
        created: 'CLOCK',
        model: 'gemini-2.5-flash',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_0', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
              ],
            },
            finish_reason: 'tool_calls',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: 13,
          completion_tokens: 2,
          total_tokens: 15,
          prompt_tokens_details: { text_tokens: 13 },
          cost: {
            input_tokens_cost: 3.9e-6,
            output_tokens_cost: 5e-6,
            reasoning_tokens_cost: 0,
            citation_tokens_cost: 0,
            search_queries_cost: 0,
            request_cost: 0,
            total_cost: 8.9e-6,
          },
        },
      },
    },
    toolStream: {
      path: '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
        contents: [{ role: 'user', parts: [{ text: 'call get_weather {"city":"Paris"}' }] }],
        systemInstruction: { parts: [{ text: 'You are a careful agent.' }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
              {
                name: 'get_time',
                description: 'Local time of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
        generationConfig: { maxOutputTokens: 2048, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      },
      answer: [
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [
            {
              index: 0,
              delta: {
                role: 'assistant',
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_0',
                    type: 'function',
                    function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                  },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [],
          usage: {
            prompt_tokens: 8,
            completion_tokens: 2,
            total_tokens: 10,
            prompt_tokens_details: { text_tokens: 8 },
            cost: {
              input_tokens_cost: 2.4e-6,
              output_tokens_cost: 5e-6,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 7.4e-6,
            },
          },
        },
        '[DONE]',
      ],
    },
    textStream: {
      path: '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
        contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
        generationConfig: { maxOutputTokens: 64 },
      },
      answer: [
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [{ index: 0, delta: { role: 'assistant', content: 'echo:' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [{ index: 0, delta: { content: ' golden' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [{ index: 0, delta: { content: ' words' }, finish_reason: 'stop' }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'gemini-2.5-flash',
          choices: [],
          usage: {
            prompt_tokens: 2,
            completion_tokens: 3,
            total_tokens: 5,
            prompt_tokens_details: { text_tokens: 2 },
            cost: {
              input_tokens_cost: 6e-7,
              output_tokens_cost: 7.5e-6,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 8.1e-6,
            },
          },
        },
        '[DONE]',
      ],
    },
  },
  cohere: {
    unary: {
      path: '/cohere/v2/chat',
      upstream: {
        model: 'command-r',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: 'What is the weather in Paris?' },
          {
            role: 'assistant',
            tool_calls: [
              {
                id: 'call_golden_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_golden_1', content: 'sunny, 21C' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
          {
            type: 'function',
            function: {
              name: 'get_time',
              description: 'Local time of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
        max_tokens: 2048,
        temperature: 1,
        thinking: { type: 'enabled', token_budget: 1024 },
      },
      answer: {
        id: '#1',
        object: 'chat.completion',
        created: 'CLOCK',
        model: 'command-r',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'I will call get_time.',
              tool_calls: [
                { id: 'call_#2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
              ],
              reasoning_content: 'Let me think about this request.',
            },
            finish_reason: 'tool_calls',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: 13,
          completion_tokens: 2,
          total_tokens: 15,
          cost: {
            input_tokens_cost: 1.95e-6,
            output_tokens_cost: 1.2e-6,
            reasoning_tokens_cost: 0,
            citation_tokens_cost: 0,
            search_queries_cost: 0,
            request_cost: 0,
            total_cost: 3.15e-6,
          },
        },
      },
    },
    toolStream: {
      path: '/cohere/v2/chat',
      upstream: {
        model: 'command-r',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: 'call get_weather {"city":"Paris"}' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
          {
            type: 'function',
            function: {
              name: 'get_time',
              description: 'Local time of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
        max_tokens: 2048,
        thinking: { type: 'enabled', token_budget: 1024 },
        stream: true,
      },
      answer: [
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [
            { index: 0, delta: { reasoning_content: 'Let me think about this request.' }, finish_reason: null },
          ],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [{ index: 0, delta: { content: 'I will call get_weather.' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  { index: 0, id: 'call_#2', type: 'function', function: { name: 'get_weather', arguments: '' } },
                ],
              },
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Par' } }] },
              finish_reason: null,
            },
          ],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'is"}' } }] }, finish_reason: null },
          ],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [],
          usage: {
            prompt_tokens: 8,
            completion_tokens: 2,
            total_tokens: 10,
            cost: {
              input_tokens_cost: 1.2e-6,
              output_tokens_cost: 1.2e-6,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 2.4e-6,
            },
          },
        },
        '[DONE]',
      ],
    },
    textStream: {
      path: '/cohere/v2/chat',
      upstream: {
        model: 'command-r',
        messages: [{ role: 'user', content: 'golden words' }],
        max_tokens: 64,
        stream: true,
      },
      answer: [
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [{ index: 0, delta: { content: 'echo:' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [{ index: 0, delta: { content: ' golden' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [{ index: 0, delta: { content: ' words' }, finish_reason: null }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          usage: null,
        },
        {
          id: '#1',
          object: 'chat.completion.chunk',
          created: 'CLOCK',
          model: 'command-r',
          choices: [],
          usage: {
            prompt_tokens: 2,
            completion_tokens: 3,
            total_tokens: 5,
            cost: {
              input_tokens_cost: 3e-7,
              output_tokens_cost: 1.8e-6,
              reasoning_tokens_cost: 0,
              citation_tokens_cost: 0,
              search_queries_cost: 0,
              request_cost: 0,
              total_cost: 2.1e-6,
            },
          },
        },
        '[DONE]',
      ],
    },
  },
};
