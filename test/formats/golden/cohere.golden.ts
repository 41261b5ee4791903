import type { CellGolden, Target } from './golden-kit.js';

/**
 * /cohere (Cohere v2 chat) in, each provider out: what the simulator received and what the client got, written out.
 * Generated ids read `<prefix>#<n>` (numbered by first appearance), clocks `CLOCK` (see `normaliseIds`).
 */
export const COHERE_GOLDEN: Record<Target, CellGolden> = {
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
            content: 'I will call get_weather.',
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
        reasoning_effort: 'low',
      },
      answer: {
        id: 'chatcmpl-#1',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_calls: [
            { id: 'call_#2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
          ],
        },
        usage: { billed_units: { input_tokens: 17, output_tokens: 2 }, tokens: { input_tokens: 17, output_tokens: 2 } },
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
        max_tokens: 2048,
        reasoning_effort: 'low',
        stream: true,
        stream_options: { include_usage: true },
      },
      answer: [
        {
          type: 'message-start',
          id: 'chatcmpl-#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        {
          type: 'tool-call-start',
          index: 0,
          delta: {
            message: {
              tool_calls: { id: 'call_#2', type: 'function', function: { name: 'get_weather', arguments: '' } },
            },
          },
        },
        {
          type: 'tool-call-delta',
          index: 0,
          delta: { message: { tool_calls: { function: { arguments: '{"city":"Par' } } } },
        },
        { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: 'is"}' } } } } },
        { type: 'tool-call-end', index: 0 },
        {
          type: 'message-end',
          id: 'chatcmpl-#1',
          delta: {
            finish_reason: 'TOOL_CALL',
            usage: {
              billed_units: { input_tokens: 8, output_tokens: 2 },
              tokens: { input_tokens: 8, output_tokens: 2 },
            },
          },
        },
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
          type: 'message-start',
          id: 'chatcmpl-#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: 'echo:' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' golden' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' words' } } } },
        { type: 'content-end', index: 0 },
        {
          type: 'message-end',
          id: 'chatcmpl-#1',
          delta: {
            finish_reason: 'COMPLETE',
            usage: {
              billed_units: { input_tokens: 2, output_tokens: 3 },
              tokens: { input_tokens: 2, output_tokens: 3 },
            },
          },
        },
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
              { type: 'text', text: 'I will call get_weather.' },
              { type: 'tool_use', id: 'call_golden_1', name: 'get_weather', input: { city: 'Paris' } },
            ],
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
      },
      answer: {
        id: 'msg_#1',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_calls: [
            { id: 'toolu_#2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
          ],
        },
        usage: { billed_units: { input_tokens: 17, output_tokens: 2 }, tokens: { input_tokens: 17, output_tokens: 2 } },
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
          type: 'message-start',
          id: 'msg_#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'thinking', thinking: '' } } } },
        {
          type: 'content-delta',
          index: 0,
          delta: { message: { content: { thinking: 'Let me think about this request.' } } },
        },
        { type: 'content-end', index: 0 },
        {
          type: 'tool-call-start',
          index: 0,
          delta: {
            message: {
              tool_calls: { id: 'toolu_#2', type: 'function', function: { name: 'get_weather', arguments: '' } },
            },
          },
        },
        {
          type: 'tool-call-delta',
          index: 0,
          delta: { message: { tool_calls: { function: { arguments: '{"city":"Par' } } } },
        },
        { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: 'is"}' } } } } },
        { type: 'tool-call-end', index: 0 },
        {
          type: 'message-end',
          id: 'msg_#1',
          delta: {
            finish_reason: 'TOOL_CALL',
            usage: {
              billed_units: { input_tokens: 8, output_tokens: 2 },
              tokens: { input_tokens: 8, output_tokens: 2 },
            },
          },
        },
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
          type: 'message-start',
          id: 'msg_#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: 'echo:' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' golden' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' words' } } } },
        { type: 'content-end', index: 0 },
        {
          type: 'message-end',
          id: 'msg_#1',
          delta: {
            finish_reason: 'COMPLETE',
            usage: {
              billed_units: { input_tokens: 2, output_tokens: 3 },
              tokens: { input_tokens: 2, output_tokens: 3 },
            },
          },
        },
      ],
    },
  },
  gemini: {
    unary: {
      path: '/gemini/v1beta/models/gemini-2.5-flash:generateContent',
      upstream: {
        contents: [
          { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
          {
            role: 'model',
            parts: [
              { text: 'I will call get_weather.' },
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            ],
          },
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
        generationConfig: {
          maxOutputTokens: 2048,
          temperature: 1,
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        },
      },
      answer: {
        id: '#1',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
          ],
        },
        usage: { billed_units: { input_tokens: 17, output_tokens: 2 }, tokens: { input_tokens: 17, output_tokens: 2 } },
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
          type: 'message-start',
          id: '#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        {
          type: 'tool-call-start',
          index: 0,
          delta: {
            message: {
              tool_calls: { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '' } },
            },
          },
        },
        {
          type: 'tool-call-delta',
          index: 0,
          delta: { message: { tool_calls: { function: { arguments: '{"city":"Paris"}' } } } },
        },
        { type: 'tool-call-end', index: 0 },
        {
          type: 'message-end',
          id: '#1',
          delta: {
            finish_reason: 'TOOL_CALL',
            usage: {
              billed_units: { input_tokens: 8, output_tokens: 2 },
              tokens: { input_tokens: 8, output_tokens: 2 },
            },
          },
        },
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
          type: 'message-start',
          id: '#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: 'echo:' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' golden' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' words' } } } },
        { type: 'content-end', index: 0 },
        {
          type: 'message-end',
          id: '#1',
          delta: {
            finish_reason: 'COMPLETE',
            usage: {
              billed_units: { input_tokens: 2, output_tokens: 3 },
              tokens: { input_tokens: 2, output_tokens: 3 },
            },
          },
        },
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
              { text: 'I will call get_weather.' },
              { toolUse: { toolUseId: 'call_golden_1', name: 'get_weather', input: { city: 'Paris' } } },
            ],
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
        },
      },
      answer: {
        id: 'chatcmpl-#1',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_calls: [
            { id: 'tooluse_#2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
          ],
        },
        usage: { billed_units: { input_tokens: 17, output_tokens: 2 }, tokens: { input_tokens: 17, output_tokens: 2 } },
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
          type: 'message-start',
          id: 'chatcmpl-#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'thinking', thinking: '' } } } },
        {
          type: 'content-delta',
          index: 0,
          delta: { message: { content: { thinking: 'Let me think about this request.' } } },
        },
        { type: 'content-end', index: 0 },
        {
          type: 'tool-call-start',
          index: 0,
          delta: {
            message: {
              tool_calls: { id: 'tooluse_#2', type: 'function', function: { name: 'get_weather', arguments: '' } },
            },
          },
        },
        {
          type: 'tool-call-delta',
          index: 0,
          delta: { message: { tool_calls: { function: { arguments: '{"city":"Par' } } } },
        },
        { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: 'is"}' } } } } },
        { type: 'tool-call-end', index: 0 },
        {
          type: 'message-end',
          id: 'chatcmpl-#1',
          delta: {
            finish_reason: 'TOOL_CALL',
            usage: {
              billed_units: { input_tokens: 8, output_tokens: 2 },
              tokens: { input_tokens: 8, output_tokens: 2 },
            },
          },
        },
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
          type: 'message-start',
          id: 'chatcmpl-#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: 'echo:' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' golden' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' words' } } } },
        { type: 'content-end', index: 0 },
        {
          type: 'message-end',
          id: 'chatcmpl-#1',
          delta: {
            finish_reason: 'COMPLETE',
            usage: {
              billed_units: { input_tokens: 2, output_tokens: 3 },
              tokens: { input_tokens: 2, output_tokens: 3 },
            },
          },
        },
      ],
    },
  },
  vertex: {
    unary: {
      path: '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
      upstream: {
        contents: [
          { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
          {
            role: 'model',
            parts: [
              { text: 'I will call get_weather.' },
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            ],
          },
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
        generationConfig: {
          maxOutputTokens: 2048,
          temperature: 1,
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        },
      },
      answer: {
        id: '#1',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
          ],
        },
        usage: { billed_units: { input_tokens: 17, output_tokens: 2 }, tokens: { input_tokens: 17, output_tokens: 2 } },
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
          type: 'message-start',
          id: '#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        {
          type: 'tool-call-start',
          index: 0,
          delta: {
            message: {
              tool_calls: { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '' } },
            },
          },
        },
        {
          type: 'tool-call-delta',
          index: 0,
          delta: { message: { tool_calls: { function: { arguments: '{"city":"Paris"}' } } } },
        },
        { type: 'tool-call-end', index: 0 },
        {
          type: 'message-end',
          id: '#1',
          delta: {
            finish_reason: 'TOOL_CALL',
            usage: {
              billed_units: { input_tokens: 8, output_tokens: 2 },
              tokens: { input_tokens: 8, output_tokens: 2 },
            },
          },
        },
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
          type: 'message-start',
          id: '#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: 'echo:' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' golden' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' words' } } } },
        { type: 'content-end', index: 0 },
        {
          type: 'message-end',
          id: '#1',
          delta: {
            finish_reason: 'COMPLETE',
            usage: {
              billed_units: { input_tokens: 2, output_tokens: 3 },
              tokens: { input_tokens: 2, output_tokens: 3 },
            },
          },
        },
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
            tool_plan: 'I will call get_weather.',
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
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_plan: 'I will call get_time.',
          tool_calls: [
            { id: 'call_#2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
          ],
          content: [{ type: 'thinking', thinking: 'Let me think about this request.' }],
        },
        usage: { billed_units: { input_tokens: 13, output_tokens: 2 }, tokens: { input_tokens: 13, output_tokens: 2 } },
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
          type: 'message-start',
          id: '#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'thinking', thinking: '' } } } },
        {
          type: 'content-delta',
          index: 0,
          delta: { message: { content: { thinking: 'Let me think about this request.' } } },
        },
        { type: 'content-end', index: 0 },
        { type: 'content-start', index: 1, delta: { message: { content: { type: 'text', text: '' } } } },
        { type: 'content-delta', index: 1, delta: { message: { content: { text: 'I will call get_weather.' } } } },
        { type: 'content-end', index: 1 },
        {
          type: 'tool-call-start',
          index: 0,
          delta: {
            message: {
              tool_calls: { id: 'call_#2', type: 'function', function: { name: 'get_weather', arguments: '' } },
            },
          },
        },
        {
          type: 'tool-call-delta',
          index: 0,
          delta: { message: { tool_calls: { function: { arguments: '{"city":"Par' } } } },
        },
        { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: 'is"}' } } } } },
        { type: 'tool-call-end', index: 0 },
        {
          type: 'message-end',
          id: '#1',
          delta: {
            finish_reason: 'TOOL_CALL',
            usage: {
              billed_units: { input_tokens: 8, output_tokens: 2 },
              tokens: { input_tokens: 8, output_tokens: 2 },
            },
          },
        },
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
          type: 'message-start',
          id: '#1',
          delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
        },
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: 'echo:' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' golden' } } } },
        { type: 'content-delta', index: 0, delta: { message: { content: { text: ' words' } } } },
        { type: 'content-end', index: 0 },
        {
          type: 'message-end',
          id: '#1',
          delta: {
            finish_reason: 'COMPLETE',
            usage: {
              billed_units: { input_tokens: 2, output_tokens: 3 },
              tokens: { input_tokens: 2, output_tokens: 3 },
            },
          },
        },
      ],
    },
  },
};
