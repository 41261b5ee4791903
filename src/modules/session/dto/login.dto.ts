import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

@ApiSchema({ name: 'LoginRequest' })
export class LoginDto {
  @ApiProperty({
    description: 'The admin username of auth_config, or a dashboard user’s email',
    minLength: 1,
    maxLength: 255,
    example: 'admin',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  username: string;

  @ApiProperty({
    description: 'The password (never stored or logged)',
    minLength: 1,
    maxLength: 1024,
    format: 'password',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password: string;
}
