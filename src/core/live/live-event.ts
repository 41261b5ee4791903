import type { Resource } from '../auth/permissions.js';

/** What the live channel pushes (docs/live-channel.md lists every type). */
export type LiveEventType = 'ready' | 'log' | 'mcp_log' | 'change' | 'circuit';

/** One message on `/ws`, as a subscriber receives it (one JSON text frame). */
export interface LiveEvent {
  type: LiveEventType;
  /** What changed: a permission resource (`VirtualKeys`, `ModelProvider`, `Settings`, …) or `circuit`. */
  resource?: string;
  /** `created`, `updated`, `deleted`; `opened`, `closed` for circuits. */
  action?: string;
  /** The changed object's id, when one is known. */
  id?: string;
  data: unknown;
  /** RFC 3339, when the gateway published it. */
  at: string;
}

/** What a module hands to `LiveEvents.publish`: the event, and whom it is for. */
export interface LiveEventDraft extends Omit<LiveEvent, 'at'> {
  /** Delivered only to subscribers holding `<requires>:View` (enterprise edition; every subscriber in oss). */
  requires: Resource;
}

/** An event on its way to subscribers, here and on the other replicas. */
export interface LiveEnvelope {
  event: LiveEvent;
  requires: Resource;
}
