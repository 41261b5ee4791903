import type { CellGolden, Target } from './golden-kit.js';

/**
 * /anthropic (Anthropic Messages) in, each provider out: what the simulator received and what the client got, written out.
 * Generated ids read `<prefix>#<n>` (numbered by first appearance), clocks `CLOCK` (see `normaliseIds`).
 */
export const ANTHROPIC_GOLDEN: Record<Target, CellGolden> = {
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
                id: 'toolu_golden_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_golden_1', content: 'sunny, 21C' },
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
      },
      answer: {
        id: 'msg_#1',
        type: 'message',
        role: 'assistant',
        model: 'openai/gpt-4o-mini',
        content: [{ type: 'tool_use', id: 'call_#2', name: 'get_time', input: { city: 'Paris' } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 13, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'openai/gpt-4o-mini',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'call_#2', name: 'get_weather', input: {} },
        },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":"Par' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'is"}' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'openai/gpt-4o-mini',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'echo:' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' golden' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' words' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { input_tokens: 2, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
            content: [
              {
                type: 'thinking',
                thinking: 'I should call the weather tool.',
                signature: 'EqQBCkYIARgCIkDnb2xkZW4gc2lnbmF0dXJlIGJ5dGVz',
              },
              { type: 'tool_use', id: 'toolu_golden_1', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_golden_1', content: 'sunny, 21C' }] },
        ],
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
        tool_choice: { type: 'auto' },
      },
      answer: {
        id: 'msg_#1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          {
            type: 'thinking',
            thinking: 'Let me think about this request.',
            signature: 'EqQBCkYIARgCIkBzaW11bGF0b3Igc2lnbmF0dXJl',
          },
          { type: 'tool_use', id: 'toolu_#2', name: 'get_time', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 13, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 8, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'Let me think about this request.' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'signature_delta', signature: 'EqQBCkYIARgCIkBzaW11bGF0b3Igc2lnbmF0dXJl' },
        },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_#2', name: 'get_weather', input: {} },
        },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":"Par' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'is"}' } },
        { type: 'content_block_stop', index: 1 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 2, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'echo:' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' golden' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' words' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { input_tokens: 2, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
        generationConfig: { maxOutputTokens: 2048, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      },
      answer: {
        id: 'msg_#1',
        type: 'message',
        role: 'assistant',
        model: 'gemini/gemini-2.5-flash',
        content: [{ type: 'tool_use', id: 'call_0', name: 'get_time', input: { city: 'Paris' } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 13, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'gemini/gemini-2.5-flash',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'call_0', name: 'get_weather', input: {} },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' },
        },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'gemini/gemini-2.5-flash',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'echo:' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' golden' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' words' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { input_tokens: 2, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
            content: [
              {
                reasoningContent: {
                  reasoningText: {
                    text: 'I should call the weather tool.',
                    signature: 'EqQBCkYIARgCIkDnb2xkZW4gc2lnbmF0dXJlIGJ5dGVz',
                  },
                },
              },
              { toolUse: { toolUseId: 'toolu_golden_1', name: 'get_weather', input: { city: 'Paris' } } },
            ],
          },
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 'toolu_golden_1', content: [{ text: 'sunny, 21C' }] } }],
          },
        ],
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
          toolChoice: { auto: {} },
        },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      },
      answer: {
        id: 'msg_#1',
        type: 'message',
        role: 'assistant',
        model: 'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0',
        content: [
          { type: 'thinking', thinking: 'Let me think about this request.', signature: 'c2ltdWxhdG9yIHNpZ25hdHVyZQ==' },
          { type: 'tool_use', id: 'tooluse_#2', name: 'get_time', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 13, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'Let me think about this request.' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'signature_delta', signature: 'c2ltdWxhdG9yIHNpZ25hdHVyZQ==' },
        },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'tooluse_#2', name: 'get_weather', input: {} },
        },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":"Par' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'is"}' } },
        { type: 'content_block_stop', index: 1 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'echo:' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' golden' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' words' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { input_tokens: 2, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
        generationConfig: { maxOutputTokens: 2048, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      },
      answer: {
        id: 'msg_#1',
        type: 'message',
        role: 'assistant',
        model: 'vertex/gemini-2.5-flash',
        content: [{ type: 'tool_use', id: 'call_0', name: 'get_time', input: { city: 'Paris' } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 13, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'vertex/gemini-2.5-flash',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'call_0', name: 'get_weather', input: {} },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' },
        },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'vertex/gemini-2.5-flash',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'echo:' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' golden' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' words' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { input_tokens: 2, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
                id: 'toolu_golden_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_golden_1', content: 'sunny, 21C' },
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
      },
      answer: {
        id: 'msg_#1',
        type: 'message',
        role: 'assistant',
        model: 'cohere/command-r',
        content: [
          { type: 'thinking', thinking: 'Let me think about this request.', signature: '' },
          { type: 'text', text: 'I will call get_time.' },
          { type: 'tool_use', id: 'call_#2', name: 'get_time', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 13, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'cohere/command-r',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'Let me think about this request.' },
        },
        { type: 'content_block_stop', index: 0 },
        { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'I will call get_weather.' } },
        { type: 'content_block_stop', index: 1 },
        {
          type: 'content_block_start',
          index: 2,
          content_block: { type: 'tool_use', id: 'call_#2', name: 'get_weather', input: {} },
        },
        { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":"Par' } },
        { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'is"}' } },
        { type: 'content_block_stop', index: 2 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
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
          type: 'message_start',
          message: {
            id: 'msg_#1',
            type: 'message',
            role: 'assistant',
            model: 'cohere/command-r',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
        { type: 'ping' },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'echo:' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' golden' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' words' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { input_tokens: 2, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
        { type: 'message_stop' },
      ],
    },
  },
};
