import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODE } from '../helpers/test-env.js';
import { created, expectInferenceError, seen, startInferenceStack, type InferenceStack } from './inference-kit.js';

/** Each provider's request timeout bounds its create call and polls together; no retries, so a failure is relayed. */
const TASK_NETWORK = { default_request_timeout: '2s', max_retries: 0 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Providers whose answer is a task to poll (issue 15): Replicate predictions and Runway tasks on /v1. */
describe(`task providers: replicate and runway (${RUN_MODE})`, () => {
  let s: InferenceStack;

  const polls = (path: string) => seen(s.sim).filter((r) => r.method === 'GET' && r.path.includes(path));

  beforeAll(async () => {
    s = await startInferenceStack();
    for (const [provider, value] of [
      ['replicate', 'r8_sim_key'],
      ['runway', 'key_runway_sim'],
    ] as const) {
      await created(
        s.admin.post('/api/providers', {
          provider,
          base_url: `${s.sim.url}/${provider}`,
          network_config: TASK_NETWORK,
        }),
      );
      await created(s.admin.post(`/api/providers/${provider}/keys`, { name: `${provider}-1`, value }));
    }
  });
  afterAll(async () => {
    // A client-aborted unary request leaves its connection open in the gateway's server (seen on plain chat too):
    // without this, app.close() waits for it until the hook times out.
    s?.gw.app.getHttpServer().closeAllConnections();
    await s?.close();
  });
  beforeEach(() => s.sim.reset());

  it('replicate images: the SDK gets the output URLs once the prediction succeeded after its polls', async () => {
    const res = await s.openai.images
      .generate({
        model: 'replicate/black-forest-labs/flux-schnell',
        prompt: 'a red fox [sim:polls=2]',
        n: 2,
        size: '1792x1024',
      })
      .withResponse();
    expect(res.response.headers.get('x-gateway-routing-info-provider')).toBe('replicate');
    const urls = res.data.data?.map((d) => d.url) ?? [];
    expect(urls).toHaveLength(2);
    expect(urls[0]).toMatch(/^https:\/\/replicate\.delivery\/sim\/.+\/out-0\.webp$/);
    const [create, ...reads] = seen(s.sim, { family: 'replicate' });
    expect(create.method).toBe('POST');
    expect(create.path).toBe('/replicate/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(create.headers.authorization).toBe('Bearer r8_sim_key');
    expect(create.body).toEqual({ input: { prompt: 'a red fox [sim:polls=2]', num_outputs: 2, aspect_ratio: '16:9' } });
    // Two reads answered `processing`, the third `succeeded`; each carried the key, none went elsewhere.
    expect(reads).toHaveLength(3);
    const id = urls[0]!.split('/')[4];
    for (const read of reads) {
      expect(read.path).toBe(`/replicate/v1/predictions/${id}`);
      expect(read.headers.authorization).toBe('Bearer r8_sim_key');
    }
    // The interval grows: the second wait is longer than the first.
    expect(reads[2].time - reads[1].time).toBeGreaterThan(reads[1].time - reads[0].time);
  });

  it('replicate: an owner/name:version model is created through /v1/predictions with its version', async () => {
    const res = await s.inference.post('/v1/images/generations', {
      model: 'replicate/stability-ai/sdxl:39ed52f2a78e',
      prompt: 'a lighthouse [sim:polls=0]',
      size: '1000x600',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [create, read] = seen(s.sim, { family: 'replicate' });
    expect(create.path).toBe('/replicate/v1/predictions');
    expect(create.body).toEqual({
      version: '39ed52f2a78e',
      input: { prompt: 'a lighthouse [sim:polls=0]', width: 1000, height: 600 },
    });
    expect(read.method).toBe('GET');
  });

  it('replicate chat: messages become prompt + system_prompt, output tokens one chat.completion with usage', async () => {
    const completion = await s.openai.chat.completions.create({
      model: 'replicate/meta/meta-llama-3-8b-instruct',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello there [sim:polls=1]' },
      ],
      max_tokens: 64,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toBe('echo: hello there [sim:polls=1]');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 });
    const [create, ...reads] = seen(s.sim, { family: 'replicate' });
    expect(create.path).toBe('/replicate/v1/models/meta/meta-llama-3-8b-instruct/predictions');
    expect(create.body).toEqual({
      input: { prompt: 'hello there [sim:polls=1]', system_prompt: 'Be brief.', max_tokens: 64 },
    });
    expect(reads).toHaveLength(2);
  });

  it('replicate chat with stream: true is a 400 naming stream, nothing sent upstream', async () => {
    const res = await s.inference.post('/v1/chat/completions', {
      model: 'replicate/meta/meta-llama-3-8b-instruct',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    expectInferenceError(res, 400, 'caller_invalid_request', { param: 'stream' });
    expect(seen(s.sim, { family: 'replicate' })).toHaveLength(0);
  });

  it('bad input is a 400 naming the field before anything is sent', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ model: 'replicate/black-forest-labs/flux-schnell', prompt: 'x', size: 'big' }, 'size', 'images/generations'],
      [
        { model: 'replicate/black-forest-labs/flux-schnell', prompt: 'x', response_format: 'b64_json' },
        'response_format',
        'images/generations',
      ],
      [{ model: 'runway/gen4_image', prompt: 'x', n: 2 }, 'n', 'images/generations'],
      [{ model: 'replicate/not-a-model', prompt: 'x' }, 'model', 'images/generations'],
      [
        {
          model: 'replicate/meta/meta-llama-3-8b-instruct',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [{ type: 'function', function: { name: 'f' } }],
        },
        'tools',
        'chat/completions',
      ],
    ];
    for (const [body, param, path] of cases) {
      const res = await s.inference.post(`/v1/${path}`, body);
      expectInferenceError(res, 400, 'caller_invalid_request', { param });
    }
    expect(seen(s.sim)).toHaveLength(0);
  });

  it('runway images: text_to_image with the version header, the task polled until SUCCEEDED', async () => {
    const res = await s.openai.images
      .generate({ model: 'runway/gen4_image', prompt: 'a city at dusk [sim:polls=2]', size: '1920x1080' })
      .withResponse();
    expect(res.response.headers.get('x-gateway-routing-info-provider')).toBe('runway');
    const url = res.data.data?.[0]?.url ?? '';
    expect(url).toMatch(/^https:\/\/dnznrvs05pmza\.cloudfront\.net\/sim\/.+\.png$/);
    const [create, ...reads] = seen(s.sim, { family: 'runway' });
    expect(create.path).toBe('/runway/v1/text_to_image');
    expect(create.headers['x-runway-version']).toBe('2024-11-06');
    expect(create.headers.authorization).toBe('Bearer key_runway_sim');
    expect(create.body).toEqual({
      promptText: 'a city at dusk [sim:polls=2]',
      model: 'gen4_image',
      ratio: '1920:1080',
    });
    expect(reads).toHaveLength(3);
    for (const read of reads) {
      expect(read.path).toMatch(/^\/runway\/v1\/tasks\/.+$/);
      expect(read.headers['x-runway-version']).toBe('2024-11-06');
    }
  });

  it('runway video: an image and a Gen-4 Turbo model make an image_to_video task; the MP4 URL comes back', async () => {
    const image = 'https://example.com/first-frame.png';
    const res = await s.openai.images
      .generate({
        model: 'runway/gen4_turbo',
        prompt: 'the camera pans left [sim:polls=1]',
        size: '1280x720' as never,
        image,
        seconds: '6',
      } as never)
      .withResponse();
    expect(res.response.headers.get('x-gateway-routing-info-provider')).toBe('runway');
    expect(res.data.data?.[0]?.url).toMatch(/^https:\/\/dnznrvs05pmza\.cloudfront\.net\/sim\/.+\.mp4$/);
    const [create, ...reads] = seen(s.sim, { family: 'runway' });
    expect(create.path).toBe('/runway/v1/image_to_video');
    expect(create.headers['x-runway-version']).toBe('2024-11-06');
    expect(create.headers.authorization).toBe('Bearer key_runway_sim');
    expect(create.body).toEqual({
      model: 'gen4_turbo',
      promptText: 'the camera pans left [sim:polls=1]',
      promptImage: image,
      ratio: '1280:720',
      duration: 6,
    });
    expect(reads).toHaveLength(2);
  });

  it('runway video: a Veo model without an image is text_to_video, with the default ratio and duration', async () => {
    const res = await s.inference.post('/v1/images/generations', {
      model: 'runway/veo3.1',
      prompt: 'waves at night [sim:polls=0]',
      seed: 7,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([{ url: expect.stringMatching(/\.mp4$/) }]);
    const [create] = seen(s.sim, { family: 'runway' });
    expect(create.path).toBe('/runway/v1/text_to_video');
    expect(create.body).toEqual({
      model: 'veo3.1',
      promptText: 'waves at night [sim:polls=0]',
      ratio: '1280:720',
      duration: 8,
      seed: 7,
    });
    const row = (await s.admin.get(`/api/logs/${res.headers.get('x-request-id')}`)).body;
    expect(row).toMatchObject({
      object: 'image_generation',
      provider: 'runway',
      model: 'veo3.1',
      status_code: 200,
      output_message: { object: 'images_summary', count: 1 },
    });
  });

  it('runway video: bad input is a 400 naming the field; a duration Runway refuses is its 400 relayed', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ model: 'runway/gen4_turbo', prompt: 'x' }, 'image'],
      [{ model: 'runway/gen4_turbo', prompt: 'x', image: 'file:///etc/passwd' }, 'image'],
      [{ model: 'runway/veo3', prompt: 'x', seconds: 'eight' }, 'seconds'],
      [{ model: 'runway/veo3', prompt: 'x', duration: 2.5 }, 'duration'],
      [{ model: 'runway/veo3', prompt: 'x', size: 'wide' }, 'size'],
      [{ model: 'runway/veo3', prompt: 'x', n: 2 }, 'n'],
      [{ model: 'runway/veo3', prompt: 'x', response_format: 'b64_json' }, 'response_format'],
    ];
    for (const [body, param] of cases) {
      const res = await s.inference.post('/v1/images/generations', body);
      expectInferenceError(res, 400, 'caller_invalid_request', { param });
    }
    expect(seen(s.sim)).toHaveLength(0);
    const refused = await s.inference.post('/v1/images/generations', {
      model: 'runway/veo3',
      prompt: 'x',
      seconds: 5,
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.is_gateway_error).toBe(false);
    expect(refused.body.error.message).toBe('Validation of body failed');
  });

  it('runway: a size Runway refuses is its 400 relayed with its message', async () => {
    const res = await s.inference.post('/v1/images/generations', {
      model: 'runway/gen4_image',
      prompt: 'x',
      size: '333x333',
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.message).toBe('Validation of body failed');
    expect(res.body.is_gateway_error).toBe(false);
  });

  it('a failed task is a 502 provider_server_error with the provider message (both providers)', async () => {
    const replicate = await s.inference.post('/v1/images/generations', {
      model: 'replicate/black-forest-labs/flux-schnell',
      prompt: 'x [sim:polls=1] [sim:fail=NSFW content detected. Try running it again.]',
    });
    expectInferenceError(replicate, 502, 'provider_server_error', { isGatewayError: false });
    expect(replicate.body.error.message).toBe('NSFW content detected. Try running it again.');
    expect(replicate.body.extra_fields.provider).toBe('replicate');
    const runway = await s.inference.post('/v1/images/generations', {
      model: 'runway/gen4_image',
      prompt: 'y [sim:polls=0] [sim:fail=Prompt flagged by moderation]',
    });
    expectInferenceError(runway, 502, 'provider_server_error', { code: 'SAFETY.INPUT.TEXT' });
    expect(runway.body.error.message).toBe('Prompt flagged by moderation');
  });

  it('a task still running at the provider request timeout is a 504 provider_timeout, polling stopped', async () => {
    const started = Date.now();
    const res = await s.inference.post('/v1/images/generations', {
      model: 'runway/gen4_image',
      prompt: 'slow [sim:never]',
    });
    const elapsed = Date.now() - started;
    expectInferenceError(res, 504, 'provider_timeout');
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(4000);
    const count = polls('/runway/v1/tasks/').length;
    expect(count).toBeGreaterThanOrEqual(3);
    await sleep(600);
    expect(polls('/runway/v1/tasks/')).toHaveLength(count);
  });

  it('a client that goes away stops the polling', async () => {
    const controller = new AbortController();
    const pending = fetch(`${s.gw.baseUrl}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.vk}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'replicate/black-forest-labs/flux-schnell', prompt: 'gone [sim:never]' }),
      signal: controller.signal,
    }).catch((err: unknown) => err);
    while (polls('/replicate/v1/predictions/').length < 2) await sleep(20);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await sleep(100);
    const count = polls('/replicate/v1/predictions/').length;
    // Without the cancellation the next reads would come at +560 ms and +840 ms.
    await sleep(1200);
    expect(polls('/replicate/v1/predictions/')).toHaveLength(count);
  });
});
