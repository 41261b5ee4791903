// A webhook receiver on loopback (test/webhooks): records each delivery, checks its signature with the secret it is
// given, and answers the statuses it is told to (`answerNext([500])`), then 200.
export { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhooks/webhook-receiver';
