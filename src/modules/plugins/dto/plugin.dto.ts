import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsObject, Max, Min } from 'class-validator';
import { IsOptionalNonNull } from '../../../core/validation/field.decorators.js';

const MAX_ORDER = 1_000_000;

@ApiSchema({ name: 'Plugin' })
export class PluginViewDto {
  @ApiProperty({ description: "The plugin name (`logging`, `cache`, `telemetry`, `jsonparser`, or a module's own)" })
  name: string;

  @ApiProperty({ description: 'A disabled plugin runs no hook (a built-in switch turns its feature off)' })
  enabled: boolean;

  @ApiProperty({ description: 'Position in the chain: lower runs first' })
  order: number;

  @ApiProperty({ type: 'object', additionalProperties: true, description: "The plugin's own settings" })
  config: Record<string, unknown>;
}

@ApiSchema({ name: 'PluginList' })
export class PluginListDto {
  @ApiProperty({ type: [PluginViewDto], description: 'Every registered plugin, in chain order' })
  plugins: PluginViewDto[];

  @ApiProperty()
  count: number;
}

/** `PUT /api/plugins/{name}`: what is given replaces that setting; `config` is replaced whole. */
@ApiSchema({ name: 'UpdatePlugin' })
export class UpdatePluginDto {
  @ApiPropertyOptional({ type: Boolean })
  @IsOptionalNonNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: Number, minimum: -MAX_ORDER, maximum: MAX_ORDER, description: 'Lower runs first' })
  @IsOptionalNonNull()
  @IsInt()
  @Min(-MAX_ORDER)
  @Max(MAX_ORDER)
  order?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The whole config, checked by the plugin (400 naming `config.<key>`)',
  })
  @IsOptionalNonNull()
  @IsObject()
  config?: Record<string, unknown>;
}
