import { GENAI_CASE } from './genai-case.js';
import { goldenMatrix } from './golden-matrix.js';
import { GENAI_GOLDEN } from './genai.golden.js';

goldenMatrix(GENAI_CASE, GENAI_GOLDEN);
