// The public file of the circuit-breaker module: what other modules may import (eslint.config.js, docs/architecture.md).
export { CircuitBreakerEngine } from './circuit-breaker.engine.js';
export type { CircuitTrip, CircuitWatch } from './circuit-watch.js';
export { CircuitBreakerModule } from './circuit-breaker.module.js';
