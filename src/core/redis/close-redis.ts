import type { Redis } from 'ioredis';
import { withTimeout } from '../clock/with-timeout.js';

/** How long a connected client's QUIT may take before the connection is simply dropped. */
const QUIT_TIMEOUT_MS = 1_000;

/**
 * Closes a client at shutdown without waiting on a server that is gone: QUIT when connected (replies already on the
 * way still arrive), a plain disconnect otherwise. QUIT on a client that is reconnecting waits in its offline queue
 * for a server that may never come back: with Redis down at SIGTERM, that held the exit until the drain timeout.
 */
export async function closeRedis(client: Redis | null | undefined): Promise<void> {
  if (!client || client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  await withTimeout(client.quit(), QUIT_TIMEOUT_MS, 'QUIT').catch(() => undefined);
  // A QUIT still unanswered: the connection goes anyway (status is 'end' when QUIT completed).
  if ((client.status as string) !== 'end') client.disconnect();
}
