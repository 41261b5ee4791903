import type { Family } from '../family.js';
import { copilotFamily } from './copilot.js';
import { databricksFamily } from './databricks.js';
import { huggingfaceFamily } from './huggingface.js';
import { mantleFamily } from './mantle.js';
import { opencodeFamily } from './opencode.js';

/** The families of `MORE_PROVIDER_FAMILIES`, registered by the server in one line. */
export const MORE_PROVIDER_FAMILY_LIST: readonly Family[] = [
  databricksFamily,
  copilotFamily,
  opencodeFamily,
  mantleFamily,
  huggingfaceFamily,
];
