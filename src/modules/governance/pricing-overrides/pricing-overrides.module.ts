import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GovernanceModule } from '../governance.module.js';
import { PricingOverrideEntity } from './entities/pricing-override.entity.js';
import { PricingOverrides } from './pricing-override-set.js';
import { PricingOverridesController } from './pricing-overrides.controller.js';
import { PricingOverridesService } from './pricing-overrides.service.js';

/**
 * Pricing overrides: stored and validated here (`/api/governance/pricing-overrides`), applied to the cost of each
 * request by the inference plane through the exported PricingOverrides snapshot.
 */
@Module({
  imports: [GovernanceModule, TypeOrmModule.forFeature([PricingOverrideEntity])],
  controllers: [PricingOverridesController],
  providers: [PricingOverrides, PricingOverridesService],
  exports: [PricingOverrides],
})
export class PricingOverridesModule {}
