import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { VirtualKeyMcpGrant } from '../../../core/auth/principal.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { IsOptionalNonNull, IsStringList } from '../../../core/validation/field.decorators.js';

export type { VirtualKeyMcpGrant } from '../../../core/auth/principal.js';

/** Most tools one grant lists. */
const MAX_GRANT_TOOLS = 1000;

/** One MCP client a virtual key may use, and which of its tools. */
@ApiSchema({ name: 'VirtualKeyMcpGrant' })
export class VirtualKeyMcpGrantDto {
  @ApiProperty({ format: 'uuid', description: 'The MCP client (`/api/mcp/clients` id); one grant per client' })
  @IsUUID('all', { message: 'mcp_client_id must be a UUID' })
  mcp_client_id: string;

  @ApiPropertyOptional({
    type: [String],
    default: ['*'],
    maxItems: MAX_GRANT_TOOLS,
    description:
      'Tools of that client the key may use, by their names on the server: `["*"]` every tool the client executes (default), `[]` none',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_GRANT_TOOLS, maxLength: 255 })
  tools_to_execute?: string[];
}

/**
 * The grants as stored (`tools_to_execute` defaulted), after the checks no decorator makes: one grant per client, and
 * `"*"` stands alone. 400 naming the item at fault.
 */
export function normalizeMcpGrants(input: readonly VirtualKeyMcpGrantDto[], param: string): VirtualKeyMcpGrant[] {
  const seen = new Map<string, number>();
  return input.map((g, i) => {
    const at = `${param}[${i}]`;
    const first = seen.get(g.mcp_client_id.toLowerCase());
    if (first !== undefined) {
      throw GatewayException.validation(`${at}.mcp_client_id`, `${at}.mcp_client_id repeats ${param}[${first}]`);
    }
    seen.set(g.mcp_client_id.toLowerCase(), i);
    const tools = g.tools_to_execute ?? ['*'];
    if (tools.includes('*') && tools.length > 1) {
      throw GatewayException.validation(`${at}.tools_to_execute`, `${at}.tools_to_execute: "*" stands alone`);
    }
    return { mcp_client_id: g.mcp_client_id.toLowerCase(), tools_to_execute: [...new Set(tools)] };
  });
}

const NO_GRANTS: readonly VirtualKeyMcpGrant[] = Object.freeze([]);

/**
 * The grants of a stored key for the request path, frozen. Rows written before grants were enforced may hold other
 * shapes (the column was a free-form placeholder): those entries grant nothing.
 */
export function storedMcpGrants(raw: readonly unknown[] | null | undefined): readonly VirtualKeyMcpGrant[] {
  const grants = (raw ?? []).filter(
    (g): g is VirtualKeyMcpGrant =>
      typeof g === 'object' &&
      g !== null &&
      typeof (g as VirtualKeyMcpGrant).mcp_client_id === 'string' &&
      Array.isArray((g as VirtualKeyMcpGrant).tools_to_execute),
  );
  if (!grants.length) return NO_GRANTS;
  return Object.freeze(grants.map((g) => Object.freeze({ ...g, tools_to_execute: [...g.tools_to_execute] })));
}
