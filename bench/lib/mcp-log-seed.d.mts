// Types of mcp-log-seed.mjs for the TypeScript tests that seed with it (test/cli/logs.e2e-spec.ts).
import type { SeedClient, SeedTimings } from './request-log-seed.mjs';
export function seedMcpLogs(
  client: SeedClient,
  options: { rows: number; batch?: number; days?: number; log?: (line: string) => void },
): Promise<SeedTimings>;
