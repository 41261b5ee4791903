// The public file of the plugins module: what other modules may import (eslint.config.js, docs/architecture.md).
export type {
  GatewayPlugin,
  PluginAnswer,
  PluginJson,
  PluginLogEntry,
  PluginRequest,
  PluginResponse,
  PluginStreamEnd,
  PreRequestOutcome,
} from './registry/gateway-plugin.js';
export { PluginRegistry } from './registry/plugin-registry.js';
export type { PluginRun } from './registry/plugin-run.js';
