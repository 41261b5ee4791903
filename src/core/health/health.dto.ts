import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';

@ApiSchema({ name: 'ComponentHealth' })
export class ComponentHealthDto {
  @ApiProperty({ enum: ['ok', 'down'], description: 'State of the component' })
  status: 'ok' | 'down';

  @ApiProperty({ description: 'What backs the component (postgres, pglite, redis, in-process)' })
  kind: string;

  @ApiProperty({ description: 'Round-trip time of the check in milliseconds', required: false })
  latency_ms?: number;
}

@ApiSchema({ name: 'HealthResponse' })
export class HealthResponseDto {
  @ApiProperty({ enum: ['ok'], description: 'Always ok on 200' })
  status: 'ok';

  @ApiProperty({
    description: 'Checked components by name (database, redis)',
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ComponentHealthDto) },
  })
  components: Record<string, ComponentHealthDto>;
}

@ApiSchema({ name: 'VersionResponse' })
export class VersionResponseDto {
  @ApiProperty({ description: 'Gateway release version', example: '0.1.0' })
  version: string;

  @ApiProperty({ description: 'Interface version of the contract', example: '1.0.0' })
  api_version: string;

  @ApiProperty({ enum: ['oss', 'enterprise'], description: 'Running edition' })
  edition: 'oss' | 'enterprise';
}
