/**
 * Issue 27 §3, "no message from a legitimate sender can wedge its receiver": a schema-valid
 * REQUEST from a member of `R_i` whose tag is not its current request (what a member restarted
 * without its state would send) must leave the cluster safe and live. The scene:
 * majority(5), unit delays, REQUEST(req 1000000, ts 1) from P4 to P0 and P1 at t = 20, on the
 * protocol's own channel, beside P4's real requests; the safety monitor watches, and every process
 * must complete its rounds. Before rules A4/R7 (`src/maekawa-arbiter.ts`, `src/maekawa-process.ts`)
 * this locked the cluster up on 200 of the first 200 seeds, and on 18 of them (4 and 5 the first)
 * P4 was InCS together with another process: the arbiter took the new REQUEST as ending P4's held
 * grant, and P4 ignored the LOCKED for a tag it never issued. The long suite sweeps other tags,
 * instants, delays and coteries (`no-wedge.long.test.ts`).
 */
import { mutexSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { majority } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { maekawa } from '../src/index.js';

/** The scene for one seed. */
async function forgedRequest(seed: number): Promise<{ r: WorkloadResult; errors: string[] }> {
  const cluster = createCluster({ factory: maekawa({ coterie: majority(5) }), spec: mutexSpec(5), seed });
  cluster.net.schedule(20, () => {
    for (const to of [0, 1]) cluster.net.endpoint(4).send(to, { type: 'REQUEST', req: 1_000_000, ts: 1 });
  });
  const r = await runWorkload(cluster, { rounds: 3 });
  await cluster.close();
  return { r, errors: cluster.errors.map((e) => `P${e.process}: ${e.error.message}`) };
}

describe('a REQUEST with a tag P4 never issued, from P4 to P0 and P1 at t = 20 (issue 27 §3)', () => {
  // seeds 1–3: the issue's; seed 4: the first where P4 and another process were InCS together
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: never two processes InCS, every process completes its rounds`, async () => {
      const reached = collectReached();
      const { r, errors } = await forgedRequest(seed);
      reached.stop();
      expect(r.violation).toBeNull();
      expect(r.stuck).toEqual([]);
      expect(r.ok).toBe(true);
      expect(errors).toEqual([]);
      // the forged tag was asked about and given back (A4's PROBE or R7's answer to a LOCKED)
      expect(reached.counts.get('maekawa:unused-tag-released')).toBeGreaterThan(0);
    });
  }

  it('seeds 1–200: 0 lock-ups, 0 safety violations', async () => {
    const bad: string[] = [];
    for (let seed = 1; seed <= 200; seed++) {
      const { r, errors } = await forgedRequest(seed);
      if (!r.ok || errors.length > 0) bad.push(`seed ${seed}: ${r.failure ?? errors[0] ?? 'not ok'}`);
    }
    expect(bad).toEqual([]);
  });
});
