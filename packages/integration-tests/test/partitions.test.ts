/**
 * Issue 28 §4 in the simulator: seeded partitions that heal, with the failure detector on
 * (`createCluster({ suspectAfter })`). Every object gets its endpoint's suspicions as
 * `ctx.suspicions`; the partitions make them suspect live processes — wrong suspicions, which
 * must never break anything: Maekawa (which does not act on them) and the (l,k)-GCS stay safe and
 * complete every round once the partitions heal (messages across a cut wait in their links).
 */
import type { CSFactory, ProcessId, Suspicions } from '@critsec/core';
import { assertWorkloadOk, createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { gcsCase, maekawaCase } from './helpers/algorithms.js';
import { closeAfterEach } from './helpers/cleanup.js';

const track = closeAfterEach();
const N = 5;
const ROUNDS = 4;

describe(`seeded partitions with the simulator's failure detector (n = ${N})`, () => {
  for (const c of [maekawaCase(N), gcsCase(N, 1, 2)]) {
    it(`${c.name}: safe, every round completes, suspicions raised and cleared`, async () => {
      for (let seed = 1; seed <= 10; seed++) {
        const given: Suspicions[] = [];
        const raised = new Set<ProcessId>();
        const factory: CSFactory = (ctx) => {
          const s = ctx.suspicions!;
          given.push(s);
          s.onChange(() => {
            for (const p of s.suspected()) raised.add(p);
          });
          return c.factory(ctx);
        };
        const cluster = track(
          createCluster({
            factory,
            spec: c.spec,
            initial: c.initial,
            seed,
            suspectAfter: 2,
            serialize: true,
          }),
        );
        cluster.net.partitions.random({ count: 3, gap: 4, duration: 8 });
        const r = await runWorkload(cluster, { kind: 'concurrent', rounds: ROUNDS });
        assertWorkloadOk(`${c.name}, seed ${seed}`, r);
        expect(r.violation).toBeNull();
        expect(r.entries).toBe(N * ROUNDS);
        expect(given).toHaveLength(N);
        expect(raised.size).toBeGreaterThan(0);
        await cluster.net.run(); // the last heal, if the workload finished first
        for (const s of given) expect(s.suspected().size).toBe(0);
      }
    });
  }
});
