/**
 * MUTIN's Response2 deviation (packages/mutin/README.md) seen from the (l,k)-GCS: the
 * composition over the paper's printed rule ('once', in both MUTIN(l) and the complemented
 * MUTIN(n−k)) deadlocks on these seeds of (4,5)-GCS over majority(5) with exponential delays,
 * and `gcs()` as users get it — MUTIN's default rule — completes every one. Making the printed
 * rule MUTIN's default again fails the second test.
 */
import { complement } from '@critsec/complement';
import { type CSFactory, globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { mutin } from '@critsec/mutin';
import { createCluster, runWorkload } from '@critsec/harness';
import { exponentialDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { compose, gcs } from '../src/index.js';

const n = 5;
const l = 4;
const k = 5;
const coterie = majority(n);
/** Found by scanning seeds 1…3,000 with the printed rule (6 deadlocks, 0 safety violations). */
const SEEDS = [280, 783, 1045, 1430, 2217, 2846];

async function run(factory: CSFactory, seed: number) {
  const cluster = createCluster({ factory, spec: globalSpec(l, k, n), seed, delay: exponentialDelay(1) });
  return runWorkload(cluster, { rounds: 3 });
}

describe('(4,5)-GCS over majority(5): Response2 at most once deadlocks, the default does not', () => {
  it('the printed rule deadlocks on every pinned seed (safety still holds)', async () => {
    const printed = compose(
      mutin({ l, coterie, response2: 'once' }),
      complement(mutin({ l: n - k, coterie, response2: 'once' })),
    );
    for (const seed of SEEDS) {
      const r = await run(printed, seed);
      expect(r.violation, `seed ${seed}`).toBeNull();
      expect(r.ok, `seed ${seed}: the printed rule completed`).toBe(false);
    }
  });

  it('gcs() with its defaults completes every pinned seed', async () => {
    for (const seed of SEEDS) {
      const r = await run(gcs({ l, k, coterie }), seed);
      expect(r.ok, `seed ${seed}: ${r.failure}`).toBe(true);
    }
  });
});
