import { TimedOut, withTimeout } from '../../../core/clock/with-timeout.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type {
  PluginAnswer,
  PluginJson,
  PluginLogEntry,
  PluginRequest,
  PluginResponse,
  PluginStreamEnd,
} from './gateway-plugin.js';
import type { PluginFailures, PluginHookName } from './plugin-failures.js';
import type { PluginChain, PluginEntry } from './plugin-registry.js';

/** What the inference pipeline knows of a request when the chain starts (after validation). */
export interface PluginRunInit {
  requestId: string;
  kind: string;
  body: PluginJson;
  stream: boolean;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  virtualKeyId?: string;
  /** performance.now() at arrival: `plugin_logs[].at_ms` counts from here. */
  startedPerf: number;
}

/** One plugin's view of the request: its config and its own state, shared by its hooks. */
class PluginView implements PluginRequest {
  readonly state = new Map<string, unknown>();

  constructor(
    private readonly run: PluginRun,
    private readonly entry: PluginEntry,
  ) {}

  get requestId(): string {
    return this.run.init.requestId;
  }
  get kind(): string {
    return this.run.init.kind;
  }
  get body(): PluginJson {
    return this.run.body;
  }
  get stream(): boolean {
    return this.run.init.stream;
  }
  get headers(): Readonly<Record<string, string | string[] | undefined>> {
    return this.run.init.headers;
  }
  get virtualKeyId(): string | undefined {
    return this.run.init.virtualKeyId;
  }
  get config(): PluginJson {
    return this.entry.settings.config;
  }

  log(level: PluginLogEntry['level'], message: string): void {
    this.run.log(this.entry.plugin.name, level, message);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * The chain's run for one request: the enabled plugins as they were when it started (a change mid-request applies to
 * the next one), their views, what they logged. Every hook is isolated: a throw (other than a refusal before the
 * answer) or a promise that outlives the hook timeout skips that plugin's hook for this request.
 */
export class PluginRun {
  body: PluginJson;
  /** The request's `plugin_logs`. */
  readonly logs: PluginLogEntry[] = [];
  /** Headers the pre-request hooks added to the answer, whatever serves it. */
  headers: Record<string, string> | undefined;
  /** Set by a plugin's answer (a cache hit). */
  answer: PluginAnswer | undefined;
  /** The canonical stream outputs per write, copied, when a plugin records the stream. */
  readonly groups: unknown[][] | undefined;
  private readonly views = new Map<string, PluginView>();
  private responseSkipped = false;

  constructor(
    private readonly chain: PluginChain,
    readonly init: PluginRunInit,
    private readonly failures: PluginFailures,
    private readonly timeoutMs: number,
  ) {
    this.body = init.body;
    this.groups = chain.recordsStream && init.stream ? [] : undefined;
  }

  get wantsRequest(): boolean {
    return this.chain.request.length > 0;
  }
  get wantsResponse(): boolean {
    return !this.responseSkipped && this.chain.response.length > 0;
  }

  /** The answer is not the request's own (agent mode's rounds): post-response hooks do not run. */
  skipResponse(): void {
    this.responseSkipped = true;
  }
  get wantsEnd(): boolean {
    return this.chain.end.length > 0;
  }
  /** Chunk hooks to run or a recording to keep: the stream writer hands each write's outputs to `chunks`. */
  get watchesChunks(): boolean {
    return this.chain.chunk.length > 0 || this.groups !== undefined;
  }

  log(plugin: string, level: PluginLogEntry['level'], message: string): void {
    this.logs.push({
      plugin,
      level,
      message,
      at_ms: Math.round((performance.now() - this.init.startedPerf) * 1000) / 1000,
    });
  }

  /**
   * The pre-request hooks in order. A rewritten body goes through `check` (the pipeline's validation); one that fails
   * it is ignored. A refusal (a thrown GatewayException) propagates. Stops at the first answer.
   */
  async request(check: (body: PluginJson) => PluginJson): Promise<PluginAnswer | undefined> {
    for (const entry of this.chain.request) {
      const view = this.view(entry);
      const outcome = await this.call(entry, 'onRequest', () => entry.plugin.onRequest!(view), true);
      if (!outcome) continue;
      if (outcome.headers) this.headers = { ...this.headers, ...outcome.headers };
      if (outcome.body) {
        try {
          this.body = check(outcome.body);
        } catch (err) {
          this.fail(entry, 'onRequest', 'invalid', err);
        }
      }
      if (outcome.answer) {
        this.answer = outcome.answer;
        return outcome.answer;
      }
    }
    return undefined;
  }

  /** The post-response hooks in order, after the answer was written. Never throws. */
  async response(response: PluginResponse): Promise<void> {
    for (const entry of this.chain.response) {
      const view = this.view(entry);
      await this.call(entry, 'onResponse', () => entry.plugin.onResponse!(view, response), false);
    }
  }

  /** One write's outputs through the chunk hooks (each may replace an output), copied for a recording. */
  chunks<T>(outputs: T[]): T[] {
    if (outputs.length === 0) return outputs;
    let current = outputs;
    const hooks = this.chain.chunk;
    if (hooks.length > 0) {
      for (let i = 0; i < outputs.length; i++) {
        const output = outputs[i];
        let out: unknown = output;
        for (const entry of hooks) out = this.chunk(entry, out);
        // A copy of the array only when some hook replaced an output: watching costs no allocation.
        if (out === output) continue;
        if (current === outputs) current = outputs.slice();
        current[i] = out as T;
      }
    }
    // A copy: the writer fills in fields (`usage: null`) of the outputs it writes.
    this.groups?.push(structuredClone(current));
    return current;
  }

  /** The stream-end hooks in order (with the recorded groups when a plugin asked for them). Never throws. */
  async streamEnd(end: Omit<PluginStreamEnd, 'groups'>): Promise<void> {
    const full: PluginStreamEnd = this.groups ? { ...end, groups: this.groups } : end;
    for (const entry of this.chain.end) {
      const view = this.view(entry);
      await this.call(entry, 'onStreamEnd', () => entry.plugin.onStreamEnd!(view, full), false);
    }
  }

  private chunk(entry: PluginEntry, output: unknown): unknown {
    try {
      const replaced = entry.plugin.onStreamChunk!(this.view(entry), output);
      if (isThenable(replaced)) {
        // A chunk hook runs between two writes of the stream: it may not wait.
        Promise.resolve(replaced).catch(() => undefined);
        this.fail(entry, 'onStreamChunk', 'invalid', new Error('onStreamChunk returned a promise'));
        return output;
      }
      return replaced === undefined ? output : replaced;
    } catch (err) {
      this.fail(entry, 'onStreamChunk', 'error', err);
      return output;
    }
  }

  /** Runs a hook isolated; synchronous results cost no timer. */
  private async call<T>(
    entry: PluginEntry,
    hook: PluginHookName,
    run: () => T | Promise<T>,
    mayRefuse: boolean,
  ): Promise<T | undefined> {
    let result: T | Promise<T>;
    try {
      result = run();
    } catch (err) {
      if (mayRefuse && err instanceof GatewayException) throw err;
      this.fail(entry, hook, 'error', err);
      return undefined;
    }
    if (!isThenable(result)) return result;
    try {
      return await withTimeout(Promise.resolve(result), this.timeoutMs, `${entry.plugin.name}.${hook}`);
    } catch (err) {
      if (mayRefuse && err instanceof GatewayException) throw err;
      this.fail(entry, hook, err instanceof TimedOut ? 'timeout' : 'error', err);
      return undefined;
    }
  }

  private fail(entry: PluginEntry, hook: PluginHookName, reason: 'error' | 'timeout' | 'invalid', err: unknown): void {
    const text = this.failures.record(entry.plugin.name, hook, reason, err, this.init.requestId);
    this.log(entry.plugin.name, 'error', text);
  }

  private view(entry: PluginEntry): PluginView {
    let view = this.views.get(entry.plugin.name);
    if (!view) {
      view = new PluginView(this, entry);
      this.views.set(entry.plugin.name, view);
    }
    return view;
  }
}
