/**
 * Issue 27 §3, "no message from a legitimate sender can wedge its receiver", on Maekawa_M: a
 * schema-valid REQUEST in the name of a process that asks the receiver, with a `req` that is not
 * its current request, must leave the cluster safe and live. The scene: T_2(grid(9)) with the
 * subgroup assignment, groups drawn at random, unit delays; REQUEST(req, ts 1, group 0) from P4 to
 * P0 and P1 at t = 20, beside P4's real requests. Before the PROBE rules (README deviation 6),
 * with req = 1000000 68 of the first 200 seeds locked up (1, 5 and 7 the first): the node ended
 * P4's request on the forged one, and P4's real request was lost.
 */
import { groupSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { grid, groupFromCoterie } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { anyGroup } from './helpers.js';

const system = groupFromCoterie(grid(9), 2);

async function forgedRequest(
  seed: number,
  req = 1_000_000,
): Promise<{ r: WorkloadResult; errors: string[] }> {
  const cluster = createCluster({
    factory: groupMutex({ system, variant: 'M' }),
    spec: groupSpec(system.m, system.n),
    seed,
  });
  cluster.net.schedule(20, () => {
    for (const to of [0, 1]) cluster.net.endpoint(4).send(to, { type: 'REQUEST', req, ts: 1, g: 0 });
  });
  const r = await runWorkload(cluster, { rounds: 3, request: anyGroup(system.m) });
  await cluster.close();
  return { r, errors: cluster.errors.map((e) => `P${e.process}: ${e.error.message}`) };
}

describe('Maekawa_M: a REQUEST P4 did not send, from P4 to P0 and P1 at t = 20 (issue 27 §3)', () => {
  // 1–3: the seeds (1 locked up before, 2 and 3 finished); 5, 7: the next that locked up
  for (const seed of [1, 2, 3, 5, 7]) {
    it(`seed ${seed}: never two groups InCS, every process completes its rounds`, async () => {
      const reached = collectReached();
      const { r, errors } = await forgedRequest(seed);
      reached.stop();
      expect(r.violation).toBeNull();
      expect(r.stuck).toEqual([]);
      expect(r.ok).toBe(true);
      expect(errors).toEqual([]);
      // the forged request was asked about, or its lock handed back by P4
      const handled = ['group-mutex-m:probe', 'group-mutex-m:stale-locked-returned'];
      expect(handled.some((l) => (reached.counts.get(l) ?? 0) > 0)).toBe(true);
    });
  }

  it('seeds 1–200 with req 1000000, 0, 1 and 2: 0 lock-ups, 0 violations', async () => {
    const bad: string[] = [];
    for (const req of [1_000_000, 0, 1, 2]) {
      for (let seed = 1; seed <= 200; seed++) {
        const { r, errors } = await forgedRequest(seed, req);
        if (!r.ok || errors.length > 0) bad.push(`req ${req}, seed ${seed}: ${r.failure ?? errors[0]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
