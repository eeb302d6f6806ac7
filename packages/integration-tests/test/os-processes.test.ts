/** OS-process clusters of n = 5 (the n = 9 ones are in `os-processes.long.test.ts`); see `os-processes.ts`. */
import { gcsGrid, maekawaGrid, osProcessTests } from './os-processes.js';

osProcessTests([maekawaGrid(5), gcsGrid(5, 1, 3)]);
