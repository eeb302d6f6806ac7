/**
 * Issue 27 §3, "no message from a legitimate sender can wedge its receiver": a schema-valid
 * `request` in the name of a process that asks the receiver, naming a request that process never
 * made, must leave the cluster safe and live. The scene on h-out-of-k: n = 5, k = 2
 * (`uniformHKArbiter(5, 2)`, P4's quorum for h = 1 holds P0 and P1), h drawn in 1..2, unit delays;
 * `request(h 1, c 1, seq 1000000)` from P4 to P0 and P1 at t = 20. Before the `probe` rules
 * (`src/arbiter.ts`), 24 of the first 200 seeds locked up (5, 17 and 43 the first): where P4 had no
 * request, the forged one took units that P4 ignored, and P4's real request, arriving while the
 * forged one was in `Que`, was dropped as "a second request"; on seeds 1–3 the forged request was
 * dropped and reported as such (the cluster finished).
 */
import { hOutOfKSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { uniformHKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { hOutOfK, hOutOfKRequest } from '../src/index.js';

const [n, k] = [5, 2];

async function forgedRequest(
  seed: number,
  seq = 1_000_000,
): Promise<{ r: WorkloadResult; errors: string[] }> {
  const cluster = createCluster({
    factory: hOutOfK({ k, arbiter: uniformHKArbiter(n, k) }),
    spec: hOutOfKSpec(k, n),
    seed,
  });
  cluster.net.schedule(20, () => {
    for (const to of [0, 1]) cluster.net.endpoint(4).send(to, { type: 'request', h: 1, c: 1, seq });
  });
  const r = await runWorkload(cluster, { rounds: 3, request: hOutOfKRequest(k, 'random') });
  await cluster.close();
  return { r, errors: cluster.errors.map((e) => `P${e.process}: ${e.error.message}`) };
}

describe('a request P4 never made, from P4 to P0 and P1 at t = 20 (issue 27 §3)', () => {
  // 1–3: the seeds; 5, 17, 43: the first that locked up before
  for (const seed of [1, 2, 3, 5, 17, 43]) {
    it(`seed ${seed}: Σ units ≤ k throughout, every process completes its rounds`, async () => {
      const reached = collectReached();
      const { r, errors } = await forgedRequest(seed);
      reached.stop();
      expect(r.violation).toBeNull();
      expect(r.stuck).toEqual([]);
      expect(r.ok).toBe(true);
      expect(errors).toEqual([]);
      // the forged request was asked about (probe) or its units given back by P4 (release)
      const handled = ['h-out-of-k:probe', 'h-out-of-k:unused-released'].map(
        (l) => reached.counts.get(l) ?? 0,
      );
      expect(handled[0]! + handled[1]!).toBeGreaterThan(0);
    });
  }

  it('seeds 1–200, seq 1000000 and seq 0: 0 lock-ups, 0 violations', async () => {
    const bad: string[] = [];
    for (const seq of [1_000_000, 0]) {
      for (let seed = 1; seed <= 200; seed++) {
        const { r, errors } = await forgedRequest(seed, seq);
        if (!r.ok || errors.length > 0) bad.push(`seq ${seq}, seed ${seed}: ${r.failure ?? errors[0]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
