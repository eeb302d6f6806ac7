import { csCompliance } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { lkcsRarePaths, lmutinRarePaths } from '../src/index.js';
import { lkcsFamilies, lmutexFamilies, lmutinFamilies, setupOf } from './families.js';

// the fast suite: a few dozen seeds per delay model and instance; the long suite runs 10⁴+
const seeds = 20;

for (const [title, families] of [
  ['LMUTIN compliance (Sec. 3, Algorithms 1–2)', lmutinFamilies],
  ['LMUTEX compliance (Sec. 4, Thm. 2)', lmutexFamilies],
] as const) {
  describe(title, () => {
    for (const x of families()) {
      csCompliance({
        it,
        ...setupOf(x),
        seeds,
        abort: { seeds: 20 },
      });
    }
  });
}

describe('LKCS compliance (Sec. 5, Algorithms 3–7)', () => {
  for (const x of lkcsFamilies()) {
    csCompliance({
      it,
      ...setupOf(x),
      seeds,
      abort: false,
    });
  }
});

// coverage across richer runs: every rare path of LMUTIN and the sidetrack of LKCS is taken
describe('rare paths', () => {
  const [ring] = lmutinFamilies();
  csCompliance({
    it,
    ...setupOf(ring!),
    name: `${ring!.name} coverage`,
    seeds: 40,
    delays: undefined,
    coverage: lmutinRarePaths,
    abort: false,
  });
  const k6 = lkcsFamilies()[1]!;
  csCompliance({
    it,
    ...setupOf(k6),
    name: `${k6.name} coverage`,
    seeds: 40,
    coverage: lkcsRarePaths,
    abort: false,
  });
});
