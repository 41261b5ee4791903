import { ApiProperty } from '@nestjs/swagger';

/** The contract's "simple message response", shared by every module. */
export class MessageResponseDto {
  @ApiProperty({ description: 'What happened' })
  message: string;
}
