import { Global, Module } from '@nestjs/common';
import { SecretsService } from './secrets.service.js';

/** SecretValue sealing, resolution and redaction, and encryption at rest, for every module. */
@Global()
@Module({
  providers: [SecretsService],
  exports: [SecretsService],
})
export class SecretsModule {}
