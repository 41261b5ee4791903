import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { VirtualKeyDto } from '../../../governance/index.js';

@ApiSchema({ name: 'AssignAccessProfileRequest' })
export class AssignAccessProfileDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The template to copy' })
  @IsInt({ message: 'profile_id must be an integer' })
  @Min(1, { message: 'profile_id must be a positive integer' })
  @Max(2_147_483_647)
  profile_id: number;
}

/** A user's copy of a profile, with the keys it produced (values masked). */
@ApiSchema({ name: 'UserAccessProfile' })
export class AccessProfileCopyDto {
  @ApiProperty({ type: 'integer' })
  id: number;
  @ApiProperty({ format: 'uuid' })
  user_id: string;
  @ApiProperty({ type: 'integer' })
  parent_profile_id: number;
  @ApiProperty()
  name: string;
  @ApiProperty()
  is_active: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expires_at: string | null;
  @ApiProperty({
    enum: ['direct', 'role'],
    description: '`role`: a default of the user’s role (replaced on role change)',
  })
  assigned_via: 'direct' | 'role';
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The role that assigned it (`role`)' })
  role_id: string | null;
  @ApiProperty({ type: [String], description: 'The managed keys this copy produced' })
  virtual_key_ids: string[];
  @ApiProperty({
    type: [String],
    description: 'Their current values masked (`sk-gw-ab…wxyz`: first 8 and last 4 characters), in the same order',
  })
  virtual_key_values: string[];
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'UserAccessProfileList' })
export class AccessProfileCopyListDto {
  @ApiProperty({ type: [AccessProfileCopyDto] })
  access_profiles: AccessProfileCopyDto[];
}

@ApiSchema({ name: 'UserAccessProfileRemoved' })
export class RemovedAccessProfileDto {
  @ApiProperty()
  message: string;
  @ApiProperty({ type: [String], description: 'Names of the managed keys deleted with the copy' })
  deleted_vk_names: string[];
  @ApiProperty({ type: 'integer' })
  deleted_vk_count: number;
}

@ApiSchema({ name: 'AssignAccessProfileResponse' })
export class AssignedAccessProfileDto {
  @ApiProperty()
  message: string;
  @ApiProperty({ type: AccessProfileCopyDto })
  access_profile: AccessProfileCopyDto;
  @ApiProperty({ type: VirtualKeyDto, description: 'The managed key, its value shown this once' })
  virtual_key: VirtualKeyDto;
}
