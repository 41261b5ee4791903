import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { OpenCircuitView } from '../circuit-states.js';

@ApiSchema({ name: 'CircuitBreakerTripSignal' })
export class CircuitTripSignalDto {
  @ApiProperty({ description: 'The header that tripped the circuit' })
  header_name: string;

  @ApiProperty({ description: 'Its value, as the primary sent it' })
  header_value: string;
}

/** One open circuit (closed circuits are absent from the map). */
@ApiSchema({ name: 'OpenCircuit' })
export class OpenCircuitDto implements OpenCircuitView {
  @ApiProperty({ enum: ['open'], description: 'Always `open`: a closed circuit is not listed' })
  status: 'open';

  @ApiProperty({ format: 'date-time' })
  opened_at: string;

  @ApiProperty({ format: 'date-time', description: 'When the circuit closes; the next request after it is the probe' })
  expires_at: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'The cooldown applied, in nanoseconds' })
  cooldown: number;

  @ApiProperty({ type: CircuitTripSignalDto })
  signal: CircuitTripSignalDto;
}

@ApiSchema({ name: 'CircuitBreakerState' })
export class CircuitStateDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(OpenCircuitDto) },
    description:
      'Open circuits by key: a policy name (main circuit) or `<policy name>\\u0000<key id>` (a key’s sub-circuit)',
  })
  circuits: Record<string, OpenCircuitDto>;
}
