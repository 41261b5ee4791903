import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../core/http/message-response.dto.js';
import { WebhookDeliveryListDto, WebhookDeliveryQueryDto, WebhookDeliveryViewDto } from './dto/webhook-delivery.dto.js';
import { CreateWebhookDto, UpdateWebhookDto, WebhookListDto, WebhookViewDto } from './dto/webhook.dto.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhooksService } from './webhooks.service.js';

const ID_PARAM = { name: 'id', description: 'Webhook ID (uuid).', format: 'uuid' };
const DELIVERY_ID_PARAM = { name: 'id', description: 'Webhook delivery ID (uuid).', format: 'uuid' };

@ApiTags('Webhooks')
@Controller('api/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Get()
  @Permission('Webhooks', 'View')
  @ApiOperation({ operationId: 'listWebhooks', summary: 'List webhooks by name' })
  @ApiOkResponse({ type: WebhookListDto })
  async list(): Promise<WebhookListDto> {
    const webhooks = (await this.webhooks.list()).map((w) => this.webhooks.view(w));
    return { webhooks, count: webhooks.length };
  }

  @Post()
  @HttpCode(201)
  @Permission('Webhooks', 'Create')
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Create a webhook',
    description:
      'Answers the webhook with its signing `secret` in clear, the only time it is shown. The URL must pass the outbound address policy (400 naming `url`). A name already taken: 409 `already_exists`.',
  })
  @ApiResponse({ status: 201, type: WebhookViewDto })
  @ApiErrorResponses(409)
  async create(@Body() body: CreateWebhookDto): Promise<WebhookViewDto> {
    const { webhook, secret } = await this.webhooks.create(body);
    return this.webhooks.view(webhook, secret);
  }

  @Post('deliveries/:id/redeliver')
  @HttpCode(202)
  @Permission('Webhooks', 'Update')
  @ApiOperation({
    operationId: 'redeliverWebhookDelivery',
    summary: 'Send a delivery again',
    description:
      'Queues a new delivery with the same event and payload (`redelivery_of` names the original) and answers it, pending. A disabled webhook: 409 `webhook_disabled`.',
  })
  @ApiParam(DELIVERY_ID_PARAM)
  @ApiResponse({ status: 202, type: WebhookDeliveryViewDto })
  @ApiErrorResponses(404, 409)
  async redeliver(@Param('id') id: string): Promise<WebhookDeliveryViewDto> {
    return WebhookDeliveriesService.view(await this.deliveries.redeliver(id));
  }

  @Get('deliveries/:id')
  @Permission('Webhooks', 'View')
  @ApiOperation({ operationId: 'getWebhookDelivery', summary: 'Get a webhook delivery with its attempts' })
  @ApiParam(DELIVERY_ID_PARAM)
  @ApiOkResponse({ type: WebhookDeliveryViewDto })
  @ApiErrorResponses(404)
  async getDelivery(@Param('id') id: string): Promise<WebhookDeliveryViewDto> {
    return WebhookDeliveriesService.view(await this.deliveries.get(id));
  }

  @Get(':id')
  @Permission('Webhooks', 'View')
  @ApiOperation({ operationId: 'getWebhook', summary: 'Get a webhook' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: WebhookViewDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<WebhookViewDto> {
    return this.webhooks.view(await this.webhooks.get(id));
  }

  @Put(':id')
  @Permission('Webhooks', 'Update')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Update a webhook (the fields sent replace the stored ones)',
    description: 'Header values sent back as `<REDACTED>` keep their stored values. The secret is not changed here.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: WebhookViewDto })
  @ApiErrorResponses(404, 409)
  async update(@Param('id') id: string, @Body() body: UpdateWebhookDto): Promise<WebhookViewDto> {
    return this.webhooks.view(await this.webhooks.update(id, body));
  }

  @Delete(':id')
  @Permission('Webhooks', 'Delete')
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete a webhook and its deliveries' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async remove(@Param('id') id: string): Promise<MessageResponseDto> {
    await this.webhooks.remove(id);
    return { message: 'Webhook deleted successfully' };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Permission('Webhooks', 'Update')
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret',
    description:
      'Answers the webhook with the new `secret` in clear, the only time it is shown. It signs every delivery sent from now on, pending retries included; the old one stops at once.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: WebhookViewDto })
  @ApiErrorResponses(404)
  async rotateSecret(@Param('id') id: string): Promise<WebhookViewDto> {
    const { webhook, secret } = await this.webhooks.rotateSecret(id);
    return this.webhooks.view(webhook, secret);
  }

  @Post(':id/test')
  @HttpCode(200)
  @Permission('Webhooks', 'Update')
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a test event now',
    description:
      'Sends a `webhook.test` event once (no retries; disabled webhooks too) and answers the delivery when the attempt is over: `status` succeeded or failed, the attempt with its `status_code` (absent when no answer came), `error` and `duration_ms`.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: WebhookDeliveryViewDto })
  @ApiErrorResponses(404)
  async test(@Param('id') id: string): Promise<WebhookDeliveryViewDto> {
    return WebhookDeliveriesService.view(await this.deliveries.test(await this.webhooks.get(id)));
  }

  @Get(':id/deliveries')
  @Permission('Webhooks', 'View')
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: "A webhook's deliveries, newest first" })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  @ApiErrorResponses(404)
  async listDeliveries(
    @Param('id') id: string,
    @Query() query: WebhookDeliveryQueryDto,
  ): Promise<WebhookDeliveryListDto> {
    const webhook = await this.webhooks.get(id);
    return this.deliveries.list(webhook.id, query);
  }
}
