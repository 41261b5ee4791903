// The public file of the agents module: what other modules may import (eslint.config.js, docs/architecture.md).
export { AGENT_NAME_PATTERN } from './dto/create-agent.dto.js';
