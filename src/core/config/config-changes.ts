import { Injectable } from '@nestjs/common';

export type ConfigChangeListener = (keys: readonly string[]) => void;

/**
 * Tells this process's consumers which runtime settings (dotted keys) were just applied into the live GatewayConfig
 * (PUT /api/config here, or a reload after another replica's). For the few consumers that derive state from a
 * setting (the provider snapshot's network settings); everything else simply reads the config at request time.
 */
@Injectable()
export class ConfigChanges {
  private readonly listeners = new Set<{ listener: ConfigChangeListener }>();

  /** Returns the unsubscribe function. */
  subscribe(listener: ConfigChangeListener): () => void {
    const entry = { listener };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /** Runs every listener; one that throws does not stop the others (the change is applied already). */
  emit(keys: readonly string[]): { failed: number } {
    let failed = 0;
    for (const { listener } of [...this.listeners]) {
      try {
        listener(keys);
      } catch {
        failed++;
      }
    }
    return { failed };
  }
}
