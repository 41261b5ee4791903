import { COHERE_CASE } from './cohere-case.js';
import { goldenMatrix } from './golden-matrix.js';
import { COHERE_GOLDEN } from './cohere.golden.js';

goldenMatrix(COHERE_CASE, COHERE_GOLDEN);
