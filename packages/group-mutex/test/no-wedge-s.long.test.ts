/**
 * Issue 27 §3, long suite for Maekawa_S: REQUEST(p 4, g, sn) from P4 to P0 and P1 (the fast
 * test's scene, `no-wedge-s.test.ts`), 2,000 seeds per system; each seed draws the tag `sn`
 * (0–4, 1000000: below, among and above P4's own), the group, the instant (5, 12, 20 or 30) and
 * the delays (unit on odd seeds, uniform(0.1, 2) on even ones). Asserted: never two groups InCS,
 * and the only errors are the role check's refusals of the copy sent to a node that is not
 * first(Q) for P4, and every run completes (README deviation 7; before the fix 223 of the 4,000
 * locked up).
 */
import { grid, groupFromCoterie, surficial } from '@critsec/coteries';
import { createRng, uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { forgedSRequest } from './forged-s.js';

const TAGS = [0, 1, 2, 3, 4, 1_000_000];
const INSTANTS = [5, 12, 20, 30];
const SEEDS = 2000;
const refusal = /^P[01]: .*REQUEST\(P4, group \d\) from P4, which is not the previous node/;

describe("a forged REQUEST in P4's name neither breaks Maekawa_S's safety nor wedges it (issue 27 §3)", () => {
  for (const [label, system] of [
    ['T_2(grid(9))', groupFromCoterie(grid(9), 2)],
    ['surficial(9,2)', surficial(9, 2)],
  ] as const) {
    it(`${label}: ${SEEDS} seeds, tag, group, instant and delays drawn per seed`, async () => {
      const bad: string[] = [];
      for (let seed = 1; seed <= SEEDS; seed++) {
        const rng = createRng(seed);
        const sn = TAGS[rng.int(TAGS.length)]!;
        const g = rng.int(system.m);
        const at = INSTANTS[rng.int(INSTANTS.length)]!;
        const delay = seed % 2 === 0 ? uniformDelay(0.1, 2) : undefined;
        const { r, errors } = await forgedSRequest(system, seed, g, sn, at, delay);
        const other = errors.filter((e) => !refusal.test(e));
        if (r.violation !== null || other.length > 0)
          bad.push(`seed ${seed} (sn ${sn}, g ${g}, t ${at}): ${r.violation?.message ?? other[0]}`);
        else if (!r.ok) bad.push(`seed ${seed} (sn ${sn}, g ${g}, t ${at}): ${r.failure}`);
      }
      expect(bad).toEqual([]);
    });
  }
});
