import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookDirectory, type WebhookSet } from './webhook-directory.js';
import { WebhookNotifier, type WebhookTarget } from './webhook-notifier.js';
import { whenReady } from '../../core/async/maybe-promise.js';

/** The webhooks module's side of the seam other modules use (webhook-notifier.ts has the contract). */
@Injectable()
export class WebhookNotifierService extends WebhookNotifier {
  constructor(
    private readonly directory: WebhookDirectory,
    private readonly deliveries: WebhookDeliveriesService,
  ) {
    super();
  }

  resolve(name: string, param: string): WebhookTarget | Promise<WebhookTarget> {
    const snapshot = this.directory.snapshot();
    return whenReady(snapshot, (set) => pick(set, name, param));
  }

  notify(webhookId: string, event: string, data: Record<string, unknown>): Promise<string | undefined> {
    return this.deliveries.notify(webhookId, event, data);
  }
}

function pick(set: WebhookSet, name: string, param: string): WebhookTarget {
  const found = set.byName.get(name);
  const shown = JSON.stringify(name.slice(0, 255));
  if (!found) throw GatewayException.validation(param, `${param} names no webhook: ${shown} does not exist`);
  if (!found.enabled) throw GatewayException.validation(param, `${param} names a disabled webhook: ${shown}`);
  return { id: found.id, name: found.name };
}
