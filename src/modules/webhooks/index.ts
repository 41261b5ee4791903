// The public file of the webhooks module: what other modules may import (eslint.config.js, docs/architecture.md).
export { WebhookNotifier } from './webhook-notifier.js';
export { WebhooksModule } from './webhooks.module.js';
