/** A webhook an async job may name (`x-gateway-async-webhook: <name>`). */
export interface WebhookTarget {
  id: string;
  name: string;
}

/**
 * What other modules need of webhooks: resolve a name at submit time, and send an event when something finished.
 * Implemented by the webhooks module (docs/webhooks.md).
 */
export abstract class WebhookNotifier {
  /**
   * The enabled webhook named `name`. Unknown or disabled: a 400 GatewayException whose `param` is `param` (the header
   * that named it). Served from an in-memory snapshot invalidated on change (no database on a request path).
   */
  abstract resolve(name: string, param: string): WebhookTarget | Promise<WebhookTarget>;

  /**
   * Records one delivery of `event` carrying `data` to the webhook and enqueues it (signed, retried with backoff, every
   * attempt recorded). Resolves with the delivery id; undefined when the webhook was deleted or disabled since.
   */
  abstract notify(webhookId: string, event: string, data: Record<string, unknown>): Promise<string | undefined>;
}
