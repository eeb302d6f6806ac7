/**
 * Time-bounded, fenced h-out-of-k with quorum reselection over 3,000 seeds (issue 28 §3–4): k = 2,
 * h in {1, 2} per entry, ttl 12, suspicion after 2 time units; holders paused past the ttl, a
 * seeded pause of anyone, a seeded partition that cuts a random minority (arbiters included) off
 * and heals, and a crash-stop per seed of **any process a quorum for every h can avoid** —
 * arbiters included: P1–P4 over arbiters {0, 1, 2} (2,000 seeds; P0 is in every 1-unit quorum),
 * any of the five over the uniform (h,k)-arbiter of n = 5 (1,000 seeds).
 * `CRITSEC_LONG=1 npx vitest run test/tenure.long.test.ts` (measured figure in the README).
 */
import { collectReached } from '@critsec/core/kit';
import { describe, expect, it } from 'vitest';
import { tenureBatch } from './tenure-run.js';

describe('time-bounded grants with quorum reselection, long', () => {
  for (const [structure, seeds] of [
    ['three', 2_000],
    ['uniform', 1_000],
  ] as const) {
    it(`${seeds} seeds over the ${structure === 'three' ? 'arbiters {0, 1, 2}' : 'uniform (h,k)-arbiter'}, an arbiter or a requester crash-stopped: 0 conflicting effects, 0 fencing violations, 0 stuck`, async () => {
      const reached = collectReached();
      const t = await tenureBatch(1, seeds, { structure, reselect: true });
      const retries = reached.counts.get('h-out-of-k:reselected') ?? 0;
      reached.stop();
      console.log(`h-out-of-k tenure long, ${structure}, reselect:`, { ...t, retries });
      expect({ conflicts: t.conflicts, violations: t.violations, stuck: t.stuck, bad: t.bad }).toEqual({
        conflicts: 0,
        violations: 0,
        stuck: 0,
        bad: [],
      });
      expect(t.expired).toBeGreaterThan(0);
      expect(t.rejected).toBeGreaterThan(0);
      expect(t.arbiterCrashes).toBeGreaterThan(seeds / 4);
      expect(retries).toBeGreaterThan(seeds / 4); // requests did move off suspected arbiters
    });
  }
});
