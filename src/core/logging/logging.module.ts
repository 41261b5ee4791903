import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';

/** Injection token of the root pino logger. */
export const LOGGER = Symbol('LOGGER');

@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger: Logger): DynamicModule {
    return { module: LoggingModule, providers: [{ provide: LOGGER, useValue: logger }], exports: [LOGGER] };
  }
}
