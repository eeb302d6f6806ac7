/** OS-process clusters of n = 9 (the n = 5 ones run in `npm test`); see `os-processes.ts`. */
import { gcsGrid, maekawaGrid, osProcessTests } from './os-processes.js';

osProcessTests([maekawaGrid(9), gcsGrid(9, 2, 5)]);
