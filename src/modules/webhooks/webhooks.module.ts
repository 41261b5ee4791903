import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookDeliveryRunner } from './delivery/webhook-delivery.runner.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity.js';
import { WebhookEntity } from './entities/webhook.entity.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookDirectory } from './webhook-directory.js';
import { WebhookNotifier } from './webhook-notifier.js';
import { WebhookNotifierService } from './webhook-notifier.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Outgoing webhooks (docs/webhooks.md): registrations under `/api/webhooks`, signed deliveries retried by the
 * `webhooks.deliver` job with every attempt recorded, and the WebhookNotifier other modules (async jobs) use to name a
 * webhook at submit time and to send it an event when something finished.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEntity, WebhookDeliveryEntity])],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookDeliveriesService,
    WebhookDeliveryRunner,
    WebhookSender,
    WebhookDirectory,
    { provide: WebhookNotifier, useClass: WebhookNotifierService },
  ],
  exports: [WebhookNotifier],
})
export class WebhooksModule {}
