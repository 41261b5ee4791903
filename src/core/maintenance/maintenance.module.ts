import { Global, Module } from '@nestjs/common';
import { ExpiredRowsRegistry, ExpiredRowsService } from './expired-rows.service.js';

/** Housekeeping jobs; other modules inject ExpiredRowsRegistry to have their expired rows purged. */
@Global()
@Module({
  providers: [ExpiredRowsRegistry, ExpiredRowsService],
  exports: [ExpiredRowsRegistry],
})
export class MaintenanceModule {}
