import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IsOptionalNonNull } from './field.decorators.js';

/** Longest comma-separated filter value accepted. */
export const MAX_LIST_QUERY_CHARS = 8192;

/** An optional comma-separated list filter (split and checked by `commaList` / `enumList`). */
export function CommaListQuery(description: string, example?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      maxLength: MAX_LIST_QUERY_CHARS,
      description,
      ...(example ? { example } : {}),
    }),
    IsOptionalNonNull(),
    IsString(),
    MaxLength(MAX_LIST_QUERY_CHARS),
  );
}

/** An optional RFC 3339 date-time filter (parsed by `timeQuery`, which names the parameter when it is not one). */
export function TimeQuery(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', maxLength: 64, description }),
    IsOptionalNonNull(),
    IsString(),
    MaxLength(64),
  );
}

/** An optional free-text search (checked by `searchTerm`: trimmed, empty ignored; any length). */
export function SearchQuery(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: 256, description }),
    IsOptionalNonNull(),
    IsString(),
    MaxLength(256),
  );
}
