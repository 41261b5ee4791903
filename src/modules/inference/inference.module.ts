import { Module } from '@nestjs/common';
import { GovernanceModule } from '../governance/governance.module.js';

/**
 * The inference plane: providers and keys (catalog/), provider adapters (providers/), routing with retries and
 * fallbacks (routing/), prices (pricing/) and the unified /v1 API.
 */
@Module({
  imports: [
    GovernanceModule,
    // catalog: TypeOrmModule.forFeature([...])
  ],
  controllers: [
    // catalog controllers
    // v1 controllers
  ],
  providers: [
    // catalog services
    // pricing and metrics
    // routing
  ],
  exports: [],
})
export class InferenceModule {}
