import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { Repository } from 'typeorm';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { LOGGER } from '../../core/logging/logging.module.js';
import type { PluginSettings } from './registry/gateway-plugin.js';
import { PluginRegistry } from './registry/plugin-registry.js';
import { checkSettingsPatch } from './registry/plugin-settings.js';
import { InvalidationBus } from '../../core/redis/invalidation.bus.js';
import type { UpdatePluginDto } from './dto/plugin.dto.js';
import { PluginSettingEntity } from './entities/plugin-setting.entity.js';

const TOPIC = 'plugins';
/** Safety net should a bus message be lost: the stored settings are read again this often. */
const RELOAD_EVERY_MS = 60_000;

/**
 * `/api/plugins`: reads the registry's snapshot, stores changes in `plugins` and tells every replica, each of which
 * reloads the table into its registry in the background (never on a request's path).
 */
@Injectable()
export class PluginSettingsService implements OnModuleInit, OnApplicationShutdown {
  private loading: Promise<void> | undefined;
  private again = false;
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectRepository(PluginSettingEntity) private readonly rows: Repository<PluginSettingEntity>,
    private readonly registry: PluginRegistry,
    private readonly bus: InvalidationBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = this.bus.subscribe(TOPIC, () => {
      this.reload().catch((err: unknown) =>
        this.logger.warn({ err: (err as Error).message }, 'plugin settings not reloaded'),
      );
    });
    await this.reload();
    this.timer = setInterval(() => void this.reload().catch(() => undefined), RELOAD_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
  }

  list(): PluginSettings[] {
    return this.registry.list();
  }

  get(name: string): PluginSettings {
    const settings = this.registry.get(name);
    if (!settings) throw GatewayException.notFound('plugin', `No plugin named ${name} is registered`);
    return settings;
  }

  /** Checks the patch (shape, then the plugin's own check of its config), stores the result, tells every replica. */
  async update(name: string, body: UpdatePluginDto): Promise<PluginSettings> {
    const plugin = this.registry.plugin(name);
    if (!plugin) throw GatewayException.notFound('plugin', `No plugin named ${name} is registered`);
    const patch = checkSettingsPatch(plugin, body);
    const settings = this.registry.patched(name, patch);
    await this.rows.save({ ...settings, updated_at: new Date() });
    await this.reload();
    await this.bus.publish(TOPIC);
    return this.get(name);
  }

  /** Reads the table into the registry; calls during a read make one more read after it. */
  private reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        do {
          this.again = false;
          const rows = await this.rows.find();
          this.registry.applyStored(rows);
        } while (this.again);
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
