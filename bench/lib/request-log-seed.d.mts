// Types of request-log-seed.mjs for the TypeScript tests that seed with it (test/cli/logs.e2e-spec.ts).
export interface SeedClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}
export interface SeedTimings {
  dropMs: number;
  insertMs: number;
  indexMs: number;
  vacuumMs: number;
}
export function seedRequestLogs(
  client: SeedClient,
  options: { rows: number; batch?: number; days?: number; log?: (line: string) => void },
): Promise<SeedTimings>;
