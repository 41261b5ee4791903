import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, TEMPLATE_ENV } from './gateway';

/**
 * One first start of the built gateway (initdb and every migration), whose embedded database every spec's gateway
 * then starts from. Fails early, with the gateway's words, when the build is missing.
 */
export default async function globalSetup(): Promise<() => void> {
  const gateway = await startGateway({ fresh: true, args: ['--ui', 'false'] });
  const template = mkdtempSync(join(tmpdir(), 'gw-ui-e2e-pgdata-'));
  const appDir = gateway.appDir;
  // Stopped first (its files settle), copied before the app dir goes.
  await gateway.stopKeeping();
  cpSync(join(appDir, 'pgdata'), template, { recursive: true });
  rmSync(appDir, { recursive: true, force: true });
  process.env[TEMPLATE_ENV] = template;
  return () => rmSync(template, { recursive: true, force: true });
}
