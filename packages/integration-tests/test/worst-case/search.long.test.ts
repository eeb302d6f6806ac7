/**
 * The worst-case searches themselves (issue 14), budgeted in schedules and states — never
 * wall-clock time — and asserting their coverage: the uncontended and contended spaces at n = 3
 * are exhausted (512 schedules each per case), the random one (5,000) and the controlled-mode walks
 * replay their whole budgets (seeds printed). The worst figure of each measure must be the one
 * pinned in `fixtures/worst-case/` (a change that moves it re-pins with `pin.ts` and says why),
 * within the lemmas' bounds. The wide contended space (4,096 per case, a superset of the
 * contended one) is searched for the bounds only, its worst figures printed.
 */
import { describe, expect, it } from 'vitest';
import { searchWalks } from './controlled.js';
import {
  PINNED_CASES,
  RANDOM_SEED,
  readPinned,
  readPinnedWalks,
  type SearchKey,
  searchesOf,
  WALK_BUDGET,
  WALK_SEED,
} from './pinning.js';
import { CASES } from './schedule.js';
import { contendedSpace, figureOf, type Measure, search } from './search.js';

const MEASURES = Object.keys(figureOf) as Measure[];

describe('worst-case search over offsets and link delays at n = 3', () => {
  for (const name of PINNED_CASES) {
    const c = CASES[name]!;
    const pinned = readPinned(name);
    for (const [key, { space, budget }] of Object.entries(searchesOf(name)) as [
      SearchKey,
      ReturnType<typeof searchesOf>[SearchKey],
    ][]) {
      it(`${c.name}, ${key}: ${budget} schedules, the worst per measure as pinned`, async () => {
        if (key === 'random') console.info(`${c.name}: random search seed ${RANDOM_SEED}`);
        const r = await search(space, budget);
        expect(r.failures).toEqual([]);
        expect(r.schedules).toBe(budget);
        if (key !== 'random') expect(r.complete).toBe(true);
        expect(r.events).toBeGreaterThanOrEqual(10 * budget);
        expect(r.perPairMean).toBeCloseTo(pinned.searches[key].perPairMean, 9);
        for (const m of MEASURES) {
          const w = r.worst[m];
          const p = pinned.searches[key].worst[m];
          expect({ m, index: w.index, value: w.value }).toEqual({ m, index: p.index, value: p.value });
        }
        expect(r.worst.perPair.value).toBeLessThanOrEqual(c.messageBound);
      });
    }

    it(`${c.name}, controlled mode: ${WALK_BUDGET} random delivery orders (seed ${WALK_SEED}), the worst as pinned`, async () => {
      const r = await searchWalks(name, WALK_SEED, WALK_BUDGET);
      const p = readPinnedWalks(name);
      expect(r.failures).toEqual([]);
      expect(r.walks).toBe(WALK_BUDGET);
      expect(r.states).toBe(p.states);
      expect(r.states).toBeGreaterThanOrEqual(10 * WALK_BUDGET);
      expect({ walk: r.worst.walk, value: r.worst.value }).toEqual({
        walk: p.worst.walk,
        value: p.worst.value,
      });
      expect(r.worst.value).toBeLessThanOrEqual(c.messageBound);
    });

    it(`${c.name}, wide contended space: 4,096 schedules within the bounds, at least the pinned contended worst`, async () => {
      const space = contendedSpace(name, true);
      const r = await search(space, space.size);
      expect(r.failures).toEqual([]);
      expect(r.complete).toBe(true);
      expect(r.events).toBeGreaterThanOrEqual(10 * space.size);
      expect(r.worst.perPair.value).toBeLessThanOrEqual(c.messageBound);
      for (const m of MEASURES)
        expect(r.worst[m].value).toBeGreaterThanOrEqual(pinned.searches.contended.worst[m].value);
      console.info(
        `${c.name}, ${r.space}: per pair mean ${r.perPairMean.toFixed(3)} max ${r.worst.perPair.value} (schedule ${r.worst.perPair.index}); sync ${r.worst.sync.value} (${r.worst.sync.index}); invocation-to-completion entry ${r.worst.entry.value} (${r.worst.entry.index}), exit ${r.worst.exit.value} (${r.worst.exit.index})`,
      );
    });
  }
});
