import { ANTHROPIC_CASE } from './anthropic-case.js';
import { goldenMatrix } from './golden-matrix.js';
import { ANTHROPIC_GOLDEN } from './anthropic.golden.js';

goldenMatrix(ANTHROPIC_CASE, ANTHROPIC_GOLDEN);
