/**
 * The one deliberate deviation from Algorithm 2 (see the header of src/mutin.ts): the paper
 * clears responseAgainTo_i after the first Response2; that can deadlock. This file pins the
 * counterexample found by seeded search and shows the default rule is live on the same runs.
 */
import { type CSState, globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { exponentialDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { type MutinCS, mutin, type Response2Rule } from '../src/index.js';

const coterie = majority(5);
const initial: CSState[] = ['InCS', 'InCS', 'InCS', 'InCS', 'OutCS'];

/** `response2` undefined: the factory's default, which is what users get. */
function run(seed: number, response2: Response2Rule | undefined) {
  const cluster = createCluster({
    factory: mutin(response2 === undefined ? { l: 4, coterie } : { l: 4, coterie, response2 }),
    spec: globalSpec(4, 5, 5),
    initial,
    seed,
    delay: exponentialDelay(1),
  });
  return runWorkload(cluster, { rounds: 3 }).then((r) => ({ r, cluster }));
}

describe("Response2 'at most once' (Algorithm 2 as printed) is not live", () => {
  it('MUTIN(4) over majority(5), exponential delays, seed 204: the paper’s rule deadlocks', async () => {
    const { r, cluster } = await run(204, 'once');
    expect(r.violation).toBeNull(); // safety holds …
    expect(r.ok).toBe(false); // … but a leaver waits forever
    const waiting = cluster.objects
      .map((o) => o as MutinCS)
      .filter((o) => o.pending === 'exit' && o.mx.state === 'InCS');
    expect(waiting.length).toBe(1);
    const leaver = waiting[0]!;
    // every process is InCS, yet the leaver (holding mx) has seen at most l = 4 of them
    expect(cluster.objects.every((o) => o.state === 'InCS')).toBe(true);
    expect(leaver.currentInCS.size).toBeLessThanOrEqual(4);
    expect(cluster.net.inFlight).toBe(0);
  });

  it('the default rule is live on the counterexample seed and on 1,000 more', async () => {
    // run with no `response2` option at all: making the printed rule the default again fails here
    for (let seed = 1; seed <= 1000; seed++) {
      const { r } = await run(seed === 1 ? 204 : seed, undefined);
      expect(r.ok, `seed ${seed === 1 ? 204 : seed}: ${r.failure}`).toBe(true);
    }
  });

  it("'per-release' named explicitly is live on the counterexample seed", async () => {
    const { r } = await run(204, 'per-release');
    expect(r.ok, r.failure ?? '').toBe(true);
  });

  it('rejects an unknown rule', () => {
    expect(() => mutin({ l: 1, coterie, response2: 'twice' as never })).toThrow(/response2 must be/);
  });
});
