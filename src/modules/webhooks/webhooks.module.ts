import { Injectable, Module } from '@nestjs/common';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { JOBS } from '../../core/queue/job-catalogue.js';
import { JobHandler } from '../../core/queue/job-handler.decorator.js';
import { WebhookNotifier, type WebhookTarget } from './webhook-notifier.js';

// Placeholder until the webhooks module lands: no webhook exists.
@Injectable()
class NoWebhooks extends WebhookNotifier {
  resolve(name: string, param: string): WebhookTarget {
    throw GatewayException.validation(param, `No enabled webhook is named "${name}"`);
  }

  notify(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
}

@Injectable()
class NoWebhookDeliveries {
  @JobHandler(JOBS.webhooksDeliver)
  deliver(): Promise<void> {
    return Promise.resolve();
  }
}

@Module({ providers: [NoWebhookDeliveries, { provide: WebhookNotifier, useClass: NoWebhooks }], exports: [WebhookNotifier] })
export class WebhooksModule {}
