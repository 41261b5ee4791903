import { Global, Module, type DynamicModule } from '@nestjs/common';

/**
 * The time the gateway's windows are measured in (budgets, rate limits, reservations). Inject it by this class; it
 * is the system clock unless the app was created with another (tests advance a ManualClock instead of sleeping).
 */
export abstract class Clock {
  /** Epoch milliseconds. */
  abstract now(): number;
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock that moves only when told to: window resets in tests without sleeps. */
export class ManualClock extends Clock {
  private at: number;

  constructor(start: number = Date.now()) {
    super();
    this.at = start;
  }

  now(): number {
    return this.at;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a clock only moves forward');
    this.at += ms;
  }

  set(epochMs: number): void {
    if (epochMs < this.at) throw new RangeError('a clock only moves forward');
    this.at = epochMs;
  }
}

/** Provides the Clock everywhere: the one given (tests), else the system clock. */
@Global()
@Module({})
export class ClockModule {
  static forRoot(clock: Clock = new SystemClock()): DynamicModule {
    return { module: ClockModule, providers: [{ provide: Clock, useValue: clock }], exports: [Clock] };
  }
}
