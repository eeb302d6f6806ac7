/**
 * OS-process clusters of n = 5 and n = 9 (long suite only: `npm test` keeps one n = 5 Maekawa
 * cluster in `@critsec/cluster`'s `launcher.test.ts` and a gcs one in `critsec cluster`'s
 * `cluster.test.ts`); see `os-processes.ts`.
 */
import { gcsGrid, maekawaGrid, osProcessTests } from './os-processes.js';

osProcessTests([maekawaGrid(5), gcsGrid(5, 1, 3), maekawaGrid(9), gcsGrid(9, 2, 5)]);
