// The management API's types are generated once, into the client package (scripts/api-types.mjs); the dashboard reads
// them from there. `.js`: the gateway's tests import the dashboard's helpers too (NodeNext resolution).
export type { components, operations, paths } from '../../../clients/typescript/src/generated/openapi.js';
