import { BEDROCK_CASE } from './bedrock-case.js';
import { goldenMatrix } from './golden-matrix.js';
import { BEDROCK_GOLDEN } from './bedrock.golden.js';

goldenMatrix(BEDROCK_CASE, BEDROCK_GOLDEN);
