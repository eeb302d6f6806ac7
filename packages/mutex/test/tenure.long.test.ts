/**
 * Time-bounded, fenced Maekawa with quorum reselection over 10⁴ seeds (issue 28): 5,000 seeds
 * each of `majority(5)` and `tree(7)`, every seed with a crash-stop of any member (holders InCS and
 * waiters holding locks included), holders paused past the ttl, a seeded pause of anyone and a
 * member cut off past the ttl and healed (`reselect-fence-run.ts`). `CRITSEC_LONG=1 npx vitest run
 * test/tenure.long.test.ts` (measured figure in the README). Replaces the earlier 10⁴ seeds of the
 * tenure run without reselection, whose 200 seeds stay in `fencing.test.ts`.
 */
import { majority, tree } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { reselectFenceBatch } from './reselect-fence-run.js';

const SEEDS = 5_000;

describe('time-bounded grants with fencing and quorum reselection, long', () => {
  for (const coterie of [majority(5), tree(7)]) {
    it(`${coterie.description}: ${SEEDS} seeds, 0 lost updates at a fencing store, 0 fencing violations, 0 live processes stuck`, async () => {
      const t = await reselectFenceBatch(coterie, 1, SEEDS);
      console.log(`reselect + ttl long, ${coterie.description}:`, t);
      expect({
        lost: t.lost,
        violations: t.violations,
        stuck: t.stuck,
        errors: t.errors,
        bad: t.bad,
      }).toEqual({
        lost: 0,
        violations: 0,
        stuck: 0,
        errors: 0,
        bad: [],
      });
      // the faults did land: dead holders and waiters, stale holders refused, cut members left behind
      expect(t.crashedInCS).toBeGreaterThan(0);
      expect(t.crashedWaiting).toBeGreaterThan(0);
      expect(t.expired).toBeGreaterThan(0);
      expect(t.rejected).toBeGreaterThan(0);
      expect(t.cuts).toBe(SEEDS);
      expect(t.entriesDuringCuts).toBeGreaterThan(0);
    });
  }
});
