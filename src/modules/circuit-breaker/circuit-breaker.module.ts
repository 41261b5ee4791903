import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProviderKeyIds } from '../governance/index.js';
import { CircuitBreakerController } from './circuit-breaker.controller.js';
import { CircuitBreakerEngine } from './circuit-breaker.engine.js';
import { CircuitBreakerService } from './circuit-breaker.service.js';
import { CircuitStates } from './circuit-states.js';
import { CircuitBreakerPolicyEntity } from './entities/circuit-breaker-policy.entity.js';

/**
 * Circuit breakers (enterprise): policies stored and validated here (`/api/circuit-breaker/*`), applied on the request
 * path by the exported CircuitBreakerEngine (the inference router asks it which model serves and tells it the
 * primary's response headers), with the open circuits every replica shares kept by CircuitStates.
 */
@Module({
  imports: [TypeOrmModule.forFeature([CircuitBreakerPolicyEntity])],
  controllers: [CircuitBreakerController],
  providers: [CircuitBreakerEngine, CircuitStates, CircuitBreakerService, ProviderKeyIds],
  exports: [CircuitBreakerEngine],
})
export class CircuitBreakerModule {}
