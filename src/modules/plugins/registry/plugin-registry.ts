import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { parseDuration } from '../../../core/config/duration.js';
import type { GatewayPlugin, PluginRequestShape, PluginSettings } from './gateway-plugin.js';
import { PluginFailures } from './plugin-failures.js';
import { PluginRun, type PluginRunInit } from './plugin-run.js';
import { checkSettingsPatch, effectiveSettings, type PluginSettingsPatch } from './plugin-settings.js';

/** An enabled plugin as the chain runs it. */
export interface PluginEntry {
  readonly plugin: GatewayPlugin;
  readonly settings: PluginSettings;
}

/** The enabled plugins per hook, in order: rebuilt on every change, read by each request as it starts. */
export interface PluginChain {
  /** Every enabled plugin, in order. */
  readonly enabled: readonly PluginEntry[];
  readonly request: readonly PluginEntry[];
  readonly response: readonly PluginEntry[];
  readonly chunk: readonly PluginEntry[];
  readonly end: readonly PluginEntry[];
  /** Some enabled plugin wants the stream's outputs at its end. */
  readonly recordsStream: boolean;
  /** Some enabled plugin has `appliesTo`: each request's run is narrowed to the plugins that apply to it. */
  readonly selective: boolean;
}

/** Whether an enabled plugin has a hook a request (streamed or not) would call. */
function hasHookFor(plugin: GatewayPlugin, stream: boolean): boolean {
  if (plugin.onRequest || plugin.onResponse) return true;
  return stream && (plugin.onStreamChunk !== undefined || plugin.onStreamEnd !== undefined);
}

function applies(plugin: GatewayPlugin, request: PluginRequestShape): boolean {
  return hasHookFor(plugin, request.stream) && (plugin.appliesTo === undefined || plugin.appliesTo(request));
}

const DEFAULT_HOOK_TIMEOUT_MS = 250;

/**
 * The plugins modules registered and their settings (defaults, then the config file's `plugins.settings`, then what
 * `/api/plugins` stored), as an in-memory snapshot. A request asks `begin` for its run: undefined, and nothing more
 * to do, while no enabled plugin has a hook.
 */
@Injectable()
export class PluginRegistry {
  readonly hookTimeoutMs: number;
  private readonly plugins = new Map<string, GatewayPlugin>();
  private readonly fileSettings: Record<string, unknown>;
  private readonly fromFile = new Map<string, PluginSettingsPatch>();
  private stored = new Map<string, PluginSettingsPatch>();
  private settings = new Map<string, PluginSettings>();
  /** Undefined while no enabled plugin has a hook: the request path checks this one field. */
  private chain: PluginChain | undefined;

  constructor(
    config: GatewayConfig,
    private readonly failures: PluginFailures,
  ) {
    this.hookTimeoutMs = parseDuration(config.plugins.hook_timeout) ?? DEFAULT_HOOK_TIMEOUT_MS;
    this.fileSettings = config.plugins.settings ?? {};
  }

  /**
   * Adds a plugin (a module's start-up). Its settings in the config file are checked here: a bad one stops the start
   * with the key at fault.
   */
  register(plugin: GatewayPlugin): void {
    if (this.plugins.has(plugin.name)) throw new Error(`A plugin named ${plugin.name} is registered already`);
    const raw = this.fileSettings[plugin.name];
    if (raw !== undefined) {
      try {
        this.fromFile.set(plugin.name, checkSettingsPatch(plugin, raw, `plugins.settings.${plugin.name}.`));
      } catch (err) {
        // One readable line naming the key, as the config loader's own problems read.
        if (err instanceof GatewayException) throw new Error(`config: ${err.param}: ${err.message}`, { cause: err });
        throw err;
      }
    }
    this.plugins.set(plugin.name, plugin);
    this.rebuild();
  }

  /** Removes a plugin (tests that register their own). */
  unregister(name: string): void {
    if (this.plugins.delete(name)) this.rebuild();
  }

  /** Replaces what the API stored (every replica, on load and on each change). */
  applyStored(stored: Iterable<PluginSettings>): void {
    const next = new Map<string, PluginSettingsPatch>();
    for (const row of stored) next.set(row.name, { enabled: row.enabled, order: row.order, config: row.config });
    this.stored = next;
    this.rebuild();
  }

  /** Every registered plugin's settings, in chain order. */
  list(): PluginSettings[] {
    return [...this.settings.values()].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  }

  get(name: string): PluginSettings | undefined {
    return this.settings.get(name);
  }

  plugin(name: string): GatewayPlugin | undefined {
    return this.plugins.get(name);
  }

  /** The settings a patch would give (the API's PUT checks and stores these). */
  patched(name: string, patch: PluginSettingsPatch): PluginSettings {
    const plugin = this.plugins.get(name)!;
    return effectiveSettings(plugin, this.fromFile.get(name), this.stored.get(name), patch);
  }

  /**
   * True when a registered plugin is disabled: the built-ins without hooks (`logging`, `telemetry`) are switches the
   * core reads this way. An unregistered name is not switched off.
   */
  switchedOff(name: string): boolean {
    const settings = this.settings.get(name);
    return settings !== undefined && !settings.enabled;
  }

  /**
   * The request's run of the chain, or undefined when no enabled plugin has a hook this request would call (a unary
   * request with only stream hooks enabled) or applies to it. The pipeline asks `wants` first, so nothing is allocated
   * then.
   */
  begin(init: PluginRunInit): PluginRun | undefined {
    if (!this.wants(init)) return undefined;
    const chain = this.chain!;
    return new PluginRun(chain.selective ? narrowed(chain, init) : chain, init, this.failures, this.hookTimeoutMs);
  }

  /** Whether the request would call any hook: checked before anything is built for `begin`. */
  wants(request: PluginRequestShape): boolean {
    const chain = this.chain;
    if (chain === undefined) return false;
    if (!chain.selective) return request.stream || chain.request.length > 0 || chain.response.length > 0;
    return chain.enabled.some((e) => applies(e.plugin, request));
  }

  private rebuild(): void {
    const settings = new Map<string, PluginSettings>();
    for (const plugin of this.plugins.values()) {
      settings.set(
        plugin.name,
        effectiveSettings(plugin, this.fromFile.get(plugin.name), this.stored.get(plugin.name)),
      );
    }
    this.settings = settings;
    const enabled = [...settings.values()]
      .filter((s) => s.enabled)
      .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
      .map((s) => ({ plugin: this.plugins.get(s.name)!, settings: s }));
    const chain = chainOf(
      enabled,
      enabled.some((e) => e.plugin.appliesTo !== undefined),
    );
    const acts = chain.request.length + chain.response.length + chain.chunk.length + chain.end.length > 0;
    this.chain = acts ? chain : undefined;
  }
}

/** The enabled plugins per hook, in their order. */
function chainOf(enabled: readonly PluginEntry[], selective: boolean): PluginChain {
  return {
    enabled,
    request: enabled.filter((e) => e.plugin.onRequest !== undefined),
    response: enabled.filter((e) => e.plugin.onResponse !== undefined),
    chunk: enabled.filter((e) => e.plugin.onStreamChunk !== undefined),
    end: enabled.filter((e) => e.plugin.onStreamEnd !== undefined),
    recordsStream: enabled.some((e) => e.plugin.recordsStream && e.plugin.onStreamEnd !== undefined),
    selective,
  };
}

/** The chain of the plugins that apply to this request. */
function narrowed(chain: PluginChain, request: PluginRequestShape): PluginChain {
  return chainOf(
    chain.enabled.filter((e) => applies(e.plugin, request)),
    false,
  );
}
