// The public file of the mcp module: what other modules may import (eslint.config.js, docs/architecture.md).
export { McpToolCatalog, McpToolExecutor } from './mcp-contract.js';
export type { ExposedTool } from './mcp-contract.js';
export {
  answerToolCalls,
  callArguments,
  continueConversation,
  injectTools,
  narrowTools,
  toolResultText,
} from './tools/tool-injection.js';
export type { AnswerToolCall } from './tools/tool-injection.js';
export { McpToolsModule } from './tools/mcp-tools.module.js';
export { McpToolGroupsModule } from './tool-groups/mcp-tool-groups.module.js';
export { McpToolGroupsService } from './tool-groups/mcp-tool-groups.service.js';
export type { McpGroupTool } from './tool-groups/mcp-tool-groups.service.js';
export { ToolGroupDependents } from './tool-groups/tool-group-dependents.js';
export type {
  AfterToolGroupCommit,
  ToolGroupDependent,
  ToolGroupReferenceCount,
} from './tool-groups/tool-group-dependents.js';
