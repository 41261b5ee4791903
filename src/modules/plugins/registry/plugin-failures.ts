import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { MetricsService } from '../../../core/metrics/metrics.service.js';

export type PluginHookName = 'onRequest' | 'onResponse' | 'onStreamChunk' | 'onStreamEnd';

/**
 * Why a hook was skipped: it threw (`error`), its promise outlived `plugins.hook_timeout` (`timeout`), or what it
 * gave back could not be used (`invalid`: a rewritten body that fails validation, a promise from a chunk hook).
 */
export type PluginFailureReason = 'error' | 'timeout' | 'invalid';

/** Longest error text kept in a log line: a plugin's message is its own, the line stays short. */
const MAX_MESSAGE = 200;

/** Counts and logs the hooks the chain skipped (`gateway_plugin_failures_total{plugin,hook,reason}`). */
@Injectable()
export class PluginFailures {
  private readonly failures: Counter<'plugin' | 'hook' | 'reason'>;

  constructor(
    metrics: MetricsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.failures = new Counter({
      name: 'gateway_plugin_failures_total',
      help: 'Plugin hooks skipped for a request because they threw or timed out, by plugin, hook and reason',
      labelNames: ['plugin', 'hook', 'reason'] as const,
      registers: [metrics.registry],
    });
  }

  /** Returns the text for the request's `plugin_logs`. Only the error's class and message are logged: no request data. */
  record(plugin: string, hook: PluginHookName, reason: PluginFailureReason, err: unknown, requestId: string): string {
    this.failures.inc({ plugin, hook, reason });
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    const text = `${hook} skipped (${reason}): ${message.slice(0, MAX_MESSAGE)}`;
    this.logger.warn(
      { plugin, hook, reason, request_id: requestId, err: message.slice(0, MAX_MESSAGE) },
      'plugin hook skipped',
    );
    return text;
  }
}
