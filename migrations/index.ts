import { SemanticCache1795700000013 } from './1795700000013-SemanticCache.js';
import { McpToolLogHourly1795700000014 } from './1795700000014-McpToolLogHourly.js';
import { RequestLogHourly1795700000015 } from './1795700000015-RequestLogHourly.js';
import { McpToolLogHourlyMeasures1795700000016 } from './1795700000016-McpToolLogHourlyMeasures.js';
import { McpToolLogKeyIndexCovers1795700000017 } from './1795700000017-McpToolLogKeyIndexCovers.js';
import { McpToolLogSearchText1795700000018 } from './1795700000018-McpToolLogSearchText.js';
import { RequestLogSearchText1795700000019 } from './1795700000019-RequestLogSearchText.js';
import { McpToolLogRequestType1796591424138 } from './1796591424138-McpToolLogRequestType.js';
import { McpToolGroups1796688910272 } from './1796688910272-McpToolGroups.js';
// Every migration, in order. New files are added here by `npm run migration:generate`.
import { RuntimeSettings1795700000011 } from './1795700000011-RuntimeSettings.js';
import { AsyncJobs1795700000008 } from './1795700000008-AsyncJobs.js';
import { Webhooks1795700000009 } from './1795700000009-Webhooks.js';
import { McpClientStatus1795700000010 } from './1795700000010-McpClientStatus.js';
import { PluginLogs1795700000012 } from './1795700000012-PluginLogs.js';
import { AccessProfileRolesAndKeyHints1795700000006 } from './1795700000006-AccessProfileRolesAndKeyHints.js';
import { AccessProfileVersions1795700000005 } from './1795700000005-AccessProfileVersions.js';
import { AccessProfilePropagations1795700000007 } from './1795700000007-AccessProfilePropagations.js';
import { AccessProfiles1795700000004 } from './1795700000004-AccessProfiles.js';
import { McpToolLogs1795700000003 } from './1795700000003-McpToolLogs.js';
import { McpClients1795700000002 } from './1795700000002-McpClients.js';
import { CircuitBreakerPolicies1795700000001 } from './1795700000001-CircuitBreakerPolicies.js';
import { PricingOverrides1795641545922 } from './1795641545922-PricingOverrides.js';
import { RoutingRules1795641391728 } from './1795641391728-RoutingRules.js';
import { GovernanceObjects1795641172295 } from './1795641172295-GovernanceObjects.js';
import { RequestLogCoveringIndexes1795700000000 } from './1795700000000-RequestLogCoveringIndexes.js';
import { RequestLogs1795632738572 } from './1795632738572-RequestLogs.js';
import { InferenceProviders1795447065316 } from './1795447065316-InferenceProviders.js';
import { SessionCredentialStamp1795440559534 } from './1795440559534-SessionCredentialStamp.js';
import { HistoryPayloadsAsJson1795436047581 } from './1795436047581-HistoryPayloadsAsJson.js';
import { PushEventsRetentionAndRecovery1795432481632 } from './1795432481632-PushEventsRetentionAndRecovery.js';
import { AgentsGateway1795305956112 } from './1795305956112-AgentsGateway.js';
import { SessionsAndAuditLogs1795305771855 } from './1795305771855-SessionsAndAuditLogs.js';
import { Agents1795305750739 } from './1795305750739-Agents.js';
import { Governance1795305672675 } from './1795305672675-Governance.js';
export const MIGRATIONS: Array<new () => unknown> = [
  Governance1795305672675,
  Agents1795305750739,
  SessionsAndAuditLogs1795305771855,
  AgentsGateway1795305956112,
  PushEventsRetentionAndRecovery1795432481632,
  HistoryPayloadsAsJson1795436047581,
  SessionCredentialStamp1795440559534,
  InferenceProviders1795447065316,
  RequestLogs1795632738572,
  GovernanceObjects1795641172295,
  RoutingRules1795641391728,
  PricingOverrides1795641545922,
  RequestLogCoveringIndexes1795700000000,
  CircuitBreakerPolicies1795700000001,
  McpClients1795700000002,
  McpToolLogs1795700000003,
  AccessProfiles1795700000004,
  AccessProfileVersions1795700000005,
  AccessProfileRolesAndKeyHints1795700000006,
  AccessProfilePropagations1795700000007,
  AsyncJobs1795700000008,
  Webhooks1795700000009,
  McpClientStatus1795700000010,
  RuntimeSettings1795700000011,
  PluginLogs1795700000012,
  SemanticCache1795700000013,
  McpToolLogHourly1795700000014,
  RequestLogHourly1795700000015,
  McpToolLogHourlyMeasures1795700000016,
  McpToolLogKeyIndexCovers1795700000017,
  McpToolLogSearchText1795700000018,
  RequestLogSearchText1795700000019,
  McpToolLogRequestType1796591424138,
  McpToolGroups1796688910272,
];
