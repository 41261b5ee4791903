import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'AccessProfileVersion' })
export class AccessProfileVersionDto {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ type: 'integer' })
  access_profile_id: number;

  @ApiProperty({ type: 'integer', description: '1 on create, +1 on every change' })
  version: number;

  @ApiProperty({ description: 'The template’s name in this version' })
  name: string;

  @ApiProperty({ description: 'The template’s description in this version' })
  description: string;

  @ApiProperty({ description: 'JSON text of the template (an AccessProfile, as GET showed it) right after the change' })
  snapshot: string;

  @ApiProperty({ type: String, nullable: true, description: 'Who made the change (the audit log’s actor)' })
  changed_by: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

@ApiSchema({ name: 'AccessProfileVersionList' })
export class AccessProfileVersionListDto {
  @ApiProperty({ type: [AccessProfileVersionDto], description: 'Oldest first (by version)' })
  versions: AccessProfileVersionDto[];
}

@ApiSchema({ name: 'AccessProfileVersionResponse' })
export class AccessProfileVersionResponseDto {
  @ApiProperty({ type: AccessProfileVersionDto })
  version: AccessProfileVersionDto;
}
