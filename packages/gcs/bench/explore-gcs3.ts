/**
 * Exhaustive DPOR exploration of the (1,2)-GCS over majority(3) — long-running; prints progress.
 *   node --conditions=@critsec/source --import tsx bench/explore-gcs3.ts [rounds]
 */
import { globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { gcs } from '../src/index.js';
import { exploreDpor } from '../test/dpor.js';
import { gcsComponents, gcsMessage } from '../test/components.js';

const rounds = Number(process.argv[2] ?? 1);
const t0 = Date.now();
const r = await exploreDpor({
  cluster: { factory: gcs({ l: 1, k: 2, coterie: majority(3) }), spec: globalSpec(1, 2, 3) },
  rounds,
  maxExecutions: Number.MAX_SAFE_INTEGER,
  components: gcsComponents,
  messageComponent: gcsMessage,
  onProgress: (e, t) =>
    console.log(`${((Date.now() - t0) / 1000).toFixed(0)} s: ${e} executions, ${t} transitions`),
});
console.log(
  JSON.stringify({ ...r, terminalStates: r.terminalStates.size, seconds: (Date.now() - t0) / 1000 }),
);
