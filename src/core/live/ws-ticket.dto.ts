import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'WsTicket' })
export class WsTicketDto {
  @ApiProperty({
    description: 'Opaque one-use ticket: open GET /ws?ticket=<ticket> with it (it stands for the caller who asked)',
  })
  ticket: string;

  @ApiProperty({ description: 'When the ticket expires unused, 30 s after issue (RFC 3339 UTC)', format: 'date-time' })
  expires_at: string;
}
