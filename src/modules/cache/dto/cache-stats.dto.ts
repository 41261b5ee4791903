import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'CacheStats' })
export class CacheStatsDto {
  @ApiProperty({
    enum: ['memory', 'redis'],
    description: 'Where entries live: this process (embedded) or Redis (scale-out)',
  })
  store: 'memory' | 'redis';

  @ApiProperty({ type: Number, minimum: 0, description: 'Live entries (not yet expired)' })
  entries: number;

  @ApiProperty({ type: Number, minimum: 0, description: 'Size of the stored answers, in bytes of their JSON text' })
  bytes: number;

  @ApiProperty({ type: Number, minimum: 0, description: 'Lookups answered from the cache (exact or semantic)' })
  hits: number;

  @ApiProperty({ type: Number, minimum: 0, description: 'Lookups that found nothing (the request went to a provider)' })
  misses: number;

  @ApiProperty({ type: Number, minimum: 0, maximum: 1, description: 'hits / (hits + misses); 0 before any lookup' })
  hit_rate: number;

  @ApiProperty({
    type: Number,
    minimum: 0,
    description: 'Vectors stored for the semantic cache (0 where it is unavailable)',
  })
  semantic_entries: number;
}

@ApiSchema({ name: 'CacheClearResponse' })
export class CacheClearResponseDto {
  @ApiProperty({ description: 'What happened' })
  message: string;

  @ApiProperty({
    pattern: '^[0-9a-f]{64}$',
    description: 'The key of the entry removed (`x-gateway-cache-key` of its answers)',
  })
  cache_key: string;
}
