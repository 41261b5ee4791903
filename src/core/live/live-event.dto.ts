import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { LiveEventType } from './live-event.js';

export const LIVE_EVENT_TYPES: readonly LiveEventType[] = ['ready', 'log', 'mcp_log', 'change', 'circuit'];

/**
 * One text frame of `GET /ws` (docs/live-channel.md lists each type). Not a response of any operation: the document
 * carries it as a component so clients type what they read from the socket; the modules that publish an event with a
 * typed `data` add their own schema (`LiveLogEvent`).
 */
@ApiSchema({ name: 'LiveEvent' })
export class LiveEventDto {
  @ApiProperty({ enum: LIVE_EVENT_TYPES, description: 'What happened' })
  type: LiveEventType;

  @ApiPropertyOptional({ description: 'The permission resource of a `change` (`VirtualKeys`, …) or `circuit`' })
  resource?: string;

  @ApiPropertyOptional({ description: '`created`, `updated`, `deleted`; `opened`, `closed` for circuits' })
  action?: string;

  @ApiPropertyOptional({ description: "The object's id, when one is known" })
  id?: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Depends on `type`' })
  data: unknown;

  @ApiProperty({ format: 'date-time', description: 'When the gateway published it' })
  at: string;
}
