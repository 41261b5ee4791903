import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The contract's "simple message response", shared by every module. */
@ApiSchema({ name: 'SimpleMessageResponse' })
export class MessageResponseDto {
  @ApiProperty({ description: 'What happened' })
  message: string;
}
