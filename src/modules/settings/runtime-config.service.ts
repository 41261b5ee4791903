import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { isConfigKeyGiven, validateConfigPlain, type ConfigProblem } from '../../core/config/config.loader.js';
import { ConfigChanges } from '../../core/config/config-changes.js';
import { GatewayConfig } from '../../core/config/gateway-config.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import { InvalidationBus } from '../../core/redis/invalidation.bus.js';
import { RuntimeSettingEntity } from './entities/runtime-setting.entity.js';
import { copyValue, getPath, isRuntimeKey, RUNTIME_KEYS, setPath, type RuntimeKey } from './runtime-keys.js';

/** Bus topic: the runtime settings rows changed; every replica reloads them. */
export const RUNTIME_CONFIG_TOPIC = 'runtime-config';

/** Where a runtime setting's value comes from. */
export type SettingSource = 'file' | 'api' | 'default';

export interface RuntimeConfigView {
  /** The runtime settings in effect, nested as in the config file. */
  config: Record<string, Record<string, unknown>>;
  /** Each runtime key (dotted) to where its value comes from. */
  sources: Record<string, SettingSource>;
}

/**
 * The runtime settings (docs/config.md): values set through `PUT /api/config` are stored in `runtime_settings` and
 * override the config file, which stays the base. They are applied into the one injected GatewayConfig in place, so
 * every consumer reading it at request time sees them; a change is published on the invalidation bus and every
 * replica reloads the rows (off the request path) and applies them.
 */
@Injectable()
export class RuntimeConfigService implements OnModuleInit, OnModuleDestroy {
  /** The values the process started with (file, environment, flags or defaults), per runtime key. */
  private readonly base = new Map<RuntimeKey, unknown>();
  /** The stored values in effect. */
  private applied = new Map<RuntimeKey, unknown>();
  /** Reloads run one after another, so the last one always applies the newest rows. */
  private reloads: Promise<void> = Promise.resolve();
  private unsubscribe?: () => void;

  constructor(
    private readonly config: GatewayConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bus: InvalidationBus,
    private readonly changes: ConfigChanges,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    for (const key of RUNTIME_KEYS) this.base.set(key, copyValue(getPath(config, key)));
  }

  /** Applies the stored settings before the app serves (module init completes before listen). */
  async onModuleInit(): Promise<void> {
    this.unsubscribe = this.bus.subscribe(RUNTIME_CONFIG_TOPIC, () => void this.reload());
    await this.reload();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  view(): RuntimeConfigView {
    const config: RuntimeConfigView['config'] = {};
    const sources: RuntimeConfigView['sources'] = {};
    for (const key of RUNTIME_KEYS) {
      setPath(config, key, copyValue(getPath(this.config, key)));
      sources[key] = this.applied.has(key) ? 'api' : isConfigKeyGiven(this.config, key) ? 'file' : 'default';
    }
    return { config, sources };
  }

  /**
   * Stores `changes` (`null` deletes the key's row: back to the file or default) after validating the whole result;
   * a bad value throws 400 naming its key and nothing is written or applied. Then applies here and tells every replica.
   */
  async update(changes: ReadonlyMap<RuntimeKey, unknown>, actor: string | null): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(RuntimeSettingEntity);
      const stored = toSettings(await repo.find());
      for (const [key, value] of changes) {
        if (value === null) stored.delete(key);
        else stored.set(key, value);
      }
      const problem = this.validate(stored).problems[0];
      if (problem) throw GatewayException.validation(problem.key, `${problem.key} ${problem.message}`);
      const now = new Date();
      for (const [key, value] of changes) {
        if (value === null) await repo.delete({ key });
        else await repo.save({ key, value: copyValue(value), updated_by: actor, updated_at: now });
      }
    });
    await this.reload();
    await this.bus.publish(RUNTIME_CONFIG_TOPIC);
  }

  /** Reads the rows and applies them; queued behind any reload in progress. Never throws. */
  reload(): Promise<void> {
    this.reloads = this.reloads.then(
      () => this.load(),
      () => this.load(),
    );
    return this.reloads.catch((err: unknown) =>
      this.logger.warn({ err: (err as Error).message }, 'runtime settings could not be reloaded'),
    );
  }

  private async load(): Promise<void> {
    const stored = toSettings(await this.dataSource.getRepository(RuntimeSettingEntity).find());
    this.apply(stored);
  }

  /**
   * The base with `stored` over it, validated as the config file is at start (field rules and cross-field checks).
   * The problems are those of runtime keys; the config is what to apply when there are none.
   */
  private validate(stored: ReadonlyMap<RuntimeKey, unknown>): { config: GatewayConfig; problems: ConfigProblem[] } {
    const plain = JSON.parse(JSON.stringify(this.config)) as Record<string, unknown>;
    for (const key of RUNTIME_KEYS)
      setPath(plain, key, copyValue(stored.has(key) ? stored.get(key) : this.base.get(key)));
    return validateConfigPlain(plain);
  }

  /**
   * Assigns the validated values into the live config, all at once (synchronously: a request sees all or none). A
   * stored value that no longer validates (an upgrade tightened a rule) is skipped and logged, never applied.
   */
  private apply(stored: Map<RuntimeKey, unknown>): void {
    let result = this.validate(stored);
    while (result.problems.length > 0) {
      const bad = [...stored.keys()].filter((k) =>
        result.problems.some((p) => p.key === k || p.key.startsWith(`${k}.`)),
      );
      if (bad.length === 0) break;
      for (const key of bad) stored.delete(key);
      this.logger.warn({ keys: bad, problems: result.problems }, 'stored runtime settings no longer valid: ignored');
      result = this.validate(stored);
    }
    if (result.problems.length > 0) {
      this.logger.warn({ problems: result.problems }, 'runtime settings not applied');
      return;
    }
    const changed = RUNTIME_KEYS.filter((k) => !sameValue(getPath(this.config, k), getPath(result.config, k)));
    for (const key of changed) setPath(this.config, key, copyValue(getPath(result.config, key)));
    this.applied = stored;
    if (changed.length > 0) {
      this.logger.info({ keys: changed }, 'runtime settings applied');
      const { failed } = this.changes.emit(changed);
      if (failed > 0) this.logger.warn({ keys: changed, failed }, 'a runtime settings listener failed');
    }
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function toSettings(rows: RuntimeSettingEntity[]): Map<RuntimeKey, unknown> {
  const out = new Map<RuntimeKey, unknown>();
  for (const row of rows) if (isRuntimeKey(row.key)) out.set(row.key, row.value);
  return out;
}
