import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { GatewayPlugin, PluginJson, PluginSettings } from './gateway-plugin.js';

/** Where a plugin sits when nothing set its order. */
export const DEFAULT_PLUGIN_ORDER = 100;
const MAX_ORDER = 1_000_000;

/** A partial setting as the config file or `PUT /api/plugins/{name}` give it. */
export interface PluginSettingsPatch {
  enabled?: boolean;
  order?: number;
  config?: PluginJson;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a patch's shape (`param` prefixes the field names, e.g. `plugins.settings.cache.`), then the plugin's own
 * check of its config. Throws the 400.
 */
export function checkSettingsPatch(plugin: GatewayPlugin | undefined, raw: unknown, param = ''): PluginSettingsPatch {
  if (!isObject(raw)) throw GatewayException.validation(param || 'body', 'Plugin settings must be an object');
  const patch: PluginSettingsPatch = {};
  for (const key of Object.keys(raw)) {
    if (key !== 'enabled' && key !== 'order' && key !== 'config') {
      throw GatewayException.validation(`${param}${key}`, `${key} is not a plugin setting (enabled, order, config)`);
    }
  }
  if (raw.enabled !== undefined) {
    if (typeof raw.enabled !== 'boolean') throw GatewayException.validation(`${param}enabled`, 'must be a boolean');
    patch.enabled = raw.enabled;
  }
  if (raw.order !== undefined) {
    const order = raw.order;
    if (typeof order !== 'number' || !Number.isInteger(order) || Math.abs(order) > MAX_ORDER) {
      throw GatewayException.validation(
        `${param}order`,
        `order must be an integer between -${MAX_ORDER} and ${MAX_ORDER}`,
      );
    }
    patch.order = order;
  }
  if (raw.config !== undefined) {
    if (!isObject(raw.config)) throw GatewayException.validation(`${param}config`, 'config must be an object');
    patch.config = raw.config;
    const refused = checkPluginConfig(plugin, raw.config);
    if (refused) {
      // The plugin names its field (`config.ttl`); under the file's prefix it becomes `plugins.settings.cache.config.ttl`.
      const field = refused.param ?? 'config';
      throw GatewayException.validation(`${param}${field}`, refused.message);
    }
  }
  return patch;
}

/** The plugin's verdict on a config: the 400 it chose (returned or thrown), or undefined. */
function checkPluginConfig(plugin: GatewayPlugin | undefined, config: PluginJson): GatewayException | undefined {
  if (!plugin?.validateConfig) return undefined;
  try {
    return plugin.validateConfig(config);
  } catch (err) {
    if (err instanceof GatewayException) return err;
    return GatewayException.validation('config', `The plugin refused this config: ${(err as Error).message}`);
  }
}

/** Defaults, then the file, then what the API stored: each layer overrides the members it sets. */
export function effectiveSettings(
  plugin: GatewayPlugin,
  ...layers: Array<PluginSettingsPatch | undefined>
): PluginSettings {
  const defaults = plugin.defaults ?? {};
  const settings: PluginSettings = {
    name: plugin.name,
    enabled: defaults.enabled ?? false,
    order: defaults.order ?? DEFAULT_PLUGIN_ORDER,
    config: defaults.config ?? {},
  };
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.enabled !== undefined) settings.enabled = layer.enabled;
    if (layer.order !== undefined) settings.order = layer.order;
    if (layer.config !== undefined) settings.config = layer.config;
  }
  return settings;
}
