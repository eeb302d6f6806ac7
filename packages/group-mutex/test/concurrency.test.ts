/**
 * Concurrent entering, measured (Sec. 2: "if a group g of processes wish to enter CS and no other
 * group of processes are interested in entering CS, then the processes in group g can
 * concurrently enter CS").
 *
 * - One group requests: every requester calls entry(g) at once and stays InCS until all are in;
 *   the max number InCS together equals the number of requesters, for both variants, every
 *   system of the matrix, and requester sets of every size (all n, and random subsets).
 * - Occupancy against a plain mutex on the same workload: Maekawa_M with one lock per node on
 *   T_m(grid) (degree 1, max[g] = 1: Maekawa's algorithm, Sec. 4.1) never has two InCS; the
 *   group mutexes overlap same-group sessions and finish the same workload sooner.
 */
import { groupSpec } from '@critsec/core';
import { grid, groupFromCoterie } from '@critsec/coteries';
import { createCluster, runWorkload, type SimCluster } from '@critsec/harness';
import { afterAll, describe, expect, it } from 'vitest';
import { type GroupMutexOptions, groupMutex } from '../src/index.js';
import { enter, systems } from './helpers.js';

const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

/** Max InCS together, and the time integral of #InCS (for occupancy). */
function track(c: SimCluster<number>): { max: () => number; area: () => number } {
  let inCS = 0;
  let max = 0;
  let area = 0;
  let last = 0;
  for (const cs of c.objects) {
    cs.on('statechange', (s) => {
      area += inCS * (c.net.now - last);
      last = c.net.now;
      inCS += s === 'InCS' ? 1 : -1;
      max = Math.max(max, inCS);
    });
  }
  return { max: () => max, area: () => area + inCS * (c.net.now - last) };
}

async function allAtOnce(
  options: GroupMutexOptions,
  requesters: readonly number[],
  g: number,
): Promise<number> {
  const { system } = options;
  const c = createCluster({ factory: groupMutex(options), spec: groupSpec(system.m, system.n), seed: 3 });
  const t = track(c);
  const entered = Promise.all(requesters.map((i) => enter(c, i, g)));
  let done = false;
  void entered.then(() => {
    done = true;
    c.net.stop();
  });
  await c.net.run({ maxEvents: 1_000_000 });
  await entered;
  expect(done).toBe(true);
  expect(c.firstViolation).toBeNull();
  for (const i of requesters) await c.objects[i]!.exit();
  await c.net.run();
  return t.max();
}

describe('one group requests: all requesters are InCS at once', () => {
  for (const [label, system] of systems()) {
    for (const variant of ['M', 'S'] as const) {
      it(`${label}, Maekawa_${variant}: max concurrency = number of requesters`, async () => {
        const all = Array.from({ length: system.n }, (_, i) => i);
        const seen: string[] = [];
        for (let g = 0; g < system.m; g++) {
          expect(await allAtOnce({ system, variant }, all, g)).toBe(system.n);
        }
        seen.push(`all ${system.n}`);
        // random subsets (deterministic): every other process, the first half, one process
        for (const subset of [
          all.filter((i) => i % 2 === 1),
          all.slice(0, Math.ceil(system.n / 2)),
          [system.n - 1],
        ]) {
          expect(await allAtOnce({ system, variant }, subset, system.m - 1)).toBe(subset.length);
          seen.push(String(subset.length));
        }
        if (variant === 'M') {
          // the system's own assignment (max[g] = n) concurs too
          expect(await allAtOnce({ system, variant, assignment: 'system' }, all, 0)).toBe(system.n);
        }
        report.push(
          `concurrent entering, ${label}, Maekawa_${variant}: max InCS = requesters for ${seen.join(', ')}`,
        );
      });
    }
  }
});

describe('occupancy against a plain mutex on the same workload', () => {
  it('T_2(grid(9)) vs surficial(9, 2), all requests for group 0 then a mixed workload: group mutexes overlap, the mutex never does', async () => {
    const n = 9;
    const mutex: GroupMutexOptions = { system: groupFromCoterie(grid(n), 2), variant: 'M', maxLocks: 1 };
    const candidates: [string, GroupMutexOptions][] = [
      ['plain mutex (Maekawa, max 1, T_2(grid(9)))', mutex],
      ['Maekawa_M on T_2(grid(9))', { system: groupFromCoterie(grid(n), 2), variant: 'M' }],
      ['Maekawa_M on surficial(9,2)', { system: systems()[1]![1], variant: 'M' }],
      ['Maekawa_S on surficial(9,2)', { system: systems()[1]![1], variant: 'S' }],
    ];
    for (const [workload, request] of [
      ['one group', () => 0],
      ['two groups, uniform', (rng: { int(b: number): number }) => rng.int(2)],
    ] as const) {
      const rows: { label: string; max: number; occupancy: number; time: number }[] = [];
      for (const [label, options] of candidates) {
        let max = 0;
        let area = 0;
        let time = 0;
        for (let seed = 1; seed <= 5; seed++) {
          const c = createCluster({ factory: groupMutex(options), spec: groupSpec(2, n), seed });
          const t = track(c);
          const r = await runWorkload(c, { rounds: 4, think: 2, hold: 2, request });
          expect(r.ok, `${label} seed ${seed}: ${r.failure ?? ''}`).toBe(true);
          max = Math.max(max, t.max());
          area += t.area();
          time += r.simulatedTime;
        }
        rows.push({ label, max, occupancy: area / time, time: time / 5 });
      }
      const [plain, ...groups] = rows;
      expect(plain!.max).toBe(1);
      for (const g of groups) {
        expect(g.max, g.label).toBeGreaterThan(1);
        expect(g.occupancy, g.label).toBeGreaterThan(plain!.occupancy);
        expect(g.time, g.label).toBeLessThan(plain!.time);
      }
      report.push(
        `occupancy (${workload}, n = 9, 4 rounds, think = hold = 2, unit delays, 5 seeds): ${rows
          .map(
            (r) =>
              `${r.label}: max InCS ${r.max}, mean InCS ${r.occupancy.toFixed(2)}, makespan ${r.time.toFixed(1)}`,
          )
          .join('; ')}`,
      );
    }
  });
});
