import { useEffect, useRef, useSyncExternalStore } from 'react';
import { api, call, gatewayRoot } from '../../api/client';
import { LiveChannel, type LiveEvent, type LiveStatus } from './live-channel';

/** The page's one live channel, opened on the gateway this page came from (its prefix kept). */
export const liveChannel = new LiveChannel({
  ticket: async () => (await call(api.POST('/api/session/ws-ticket'))).ticket,
  url: (ticket) => {
    const url = new URL('ws', gatewayRoot);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('ticket', ticket);
    return url.href;
  },
});

/** The live channel's status, re-rendering on each change. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (notify) => liveChannel.onStatus(notify),
    () => liveChannel.status,
  );
}

/**
 * Listens to live events of `type` while `enabled`, holding the connection open meanwhile. `onEvent` may change
 * between renders; the latest one is called.
 */
export function useLiveEvents(type: LiveEvent['type'], enabled: boolean, onEvent: (event: LiveEvent) => void): void {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => {
    if (!enabled) return;
    const release = liveChannel.hold();
    const off = liveChannel.on(type, (event) => handler.current(event));
    return () => {
      off();
      release();
    };
  }, [type, enabled]);
}
