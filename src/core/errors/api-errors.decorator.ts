import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { GatewayErrorDto } from './gateway-error.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request (validation_failed names the field in error.param)',
  401: 'Missing or invalid credentials',
  402: 'Budget exceeded',
  403: 'Authenticated but not permitted',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  426: 'Upgrade required (a WebSocket route called without the upgrade)',
  429: 'Rate limited',
  500: 'Internal server error',
  502: 'Upstream error',
  503: 'Service unavailable',
  504: 'Upstream timeout',
};

/** Declares GatewayError responses for an operation beyond the defaults every operation gets. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type: GatewayErrorDto }),
    ),
  );
}

export function errorDescription(status: number): string {
  return DESCRIPTIONS[status] ?? 'Error';
}
