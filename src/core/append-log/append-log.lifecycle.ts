import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppendLogWriter } from './append-log.writer.js';

/**
 * Runs the writer's last flush at the one point of Nest's shutdown that comes after everything that may still append
 * (beforeApplicationShutdown hooks, where queue workers drain; the HTTP server's close, where in-flight requests end)
 * and before the database pool closes (TypeOrmCoreModule's onApplicationShutdown). onApplicationShutdown hooks run
 * module by module, shallow modules first and every global module last: this module is not global, so it comes
 * before TypeOrmCoreModule; it is imported by CoreModule, so after the gateway's feature modules.
 */
@Injectable()
class AppendLogLifecycle implements OnApplicationShutdown {
  constructor(private readonly writer: AppendLogWriter) {}

  async onApplicationShutdown(): Promise<void> {
    await this.writer.close();
  }
}

@Module({ providers: [AppendLogLifecycle] })
export class AppendLogLifecycleModule {}
