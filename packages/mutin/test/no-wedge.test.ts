/**
 * Issue 27 §3 through the composition: MUTIN's inner mutex (`mx`, Maekawa) receives a REQUEST in
 * the name of P4 with a tag P4 never issued — majority(5), l = 2, unit delays, REQUEST(req
 * 1000000, ts 1) on P4's `mx` channel to P0 and P1 at t = 20. Before Maekawa's PROBE rules
 * (`@critsec/mutex` README, "One deviation from the papers") MUTIN locked up on 200 of the first
 * 200 seeds (for l = 1, 2 and 3 alike); now every process completes its rounds.
 */
import { globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { mutin } from '../src/index.js';

describe('MUTIN: a forged REQUEST on the inner Maekawa channel (issue 27 §3)', () => {
  it('majority(5), l = 2, seeds 1–50: l-mutual inclusion kept, every process completes its rounds', async () => {
    const [n, l] = [5, 2];
    const bad: string[] = [];
    for (let seed = 1; seed <= 50; seed++) {
      const cluster = createCluster({
        factory: mutin({ l, coterie: majority(n) }),
        spec: globalSpec(l, n, n),
        seed,
      });
      cluster.net.schedule(20, () => {
        for (const to of [0, 1]) {
          cluster.net.endpoint(4).channel('mx').send(to, { type: 'REQUEST', req: 1_000_000, ts: 1 });
        }
      });
      const r = await runWorkload(cluster, { rounds: 3 });
      await cluster.close();
      if (!r.ok || cluster.errors.length > 0)
        bad.push(`seed ${seed}: ${r.failure ?? cluster.errors[0]?.error.message}`);
    }
    expect(bad).toEqual([]);
  });
});
