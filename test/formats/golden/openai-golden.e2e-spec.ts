import { OPENAI_CASE } from './openai-case.js';
import { goldenMatrix } from './golden-matrix.js';
import { OPENAI_GOLDEN } from './openai.golden.js';

goldenMatrix(OPENAI_CASE, OPENAI_GOLDEN);
