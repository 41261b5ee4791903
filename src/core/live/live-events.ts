import { Injectable } from '@nestjs/common';
import type { LiveEnvelope, LiveEventDraft } from './live-event.js';
import { LiveRelay } from './live-relay.js';

export type LiveListener = (envelope: LiveEnvelope) => void;

/**
 * The core publisher of the live channel: any module calls `publish` when something a dashboard shows happened (a
 * log row written, a governance object changed, a circuit opened). The event goes to this replica's subscribers and,
 * through the relay, to the other replicas' (Redis pub/sub in scale-out). Publishing costs nothing while no dashboard
 * listens anywhere: check `listening` before building an expensive payload.
 */
@Injectable()
export class LiveEvents {
  private readonly listeners = new Set<LiveListener>();

  constructor(private readonly relay: LiveRelay) {
    relay.onReceive((envelope) => this.deliver(envelope));
  }

  /** Whether an event published now may reach anyone (here, or on another replica). */
  get listening(): boolean {
    return this.listeners.size > 0 || this.relay.remoteListeners;
  }

  publish(draft: LiveEventDraft): void {
    if (!this.listening) return;
    const { requires, ...event } = draft;
    const envelope: LiveEnvelope = { event: { ...event, at: new Date().toISOString() }, requires };
    this.deliver(envelope);
    this.relay.send(envelope);
  }

  /**
   * Receives every event published from now on, here or elsewhere. Resolves once events of the other replicas reach
   * this one too (the relay is subscribed), to the function that stops listening.
   */
  async listen(listener: LiveListener): Promise<() => void> {
    this.listeners.add(listener);
    await this.relay.join();
    return () => {
      if (!this.listeners.delete(listener)) return;
      if (this.listeners.size === 0) void this.relay.leave();
    };
  }

  private deliver(envelope: LiveEnvelope): void {
    for (const listener of this.listeners) listener(envelope);
  }
}
