// The public file of the audit module: what other modules may import (eslint.config.js, docs/architecture.md).
export { AuditService } from './audit.service.js';
export { AuditModule } from './audit.module.js';
