import { csCompliance } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { lkcsRarePaths, lmutinRarePaths } from '../src/index.js';
import { lkcsFamilies, lmutexFamilies, lmutinFamilies } from './families.js';

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
        name: x.name,
        factory: x.factory,
        spec: x.spec,
        initial: x.initial,
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
      name: x.name,
      factory: x.factory,
      spec: x.spec,
      sequentialSpec: x.tightened,
      initial: x.initial,
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
    name: `${ring!.name} coverage`,
    factory: ring!.factory,
    spec: ring!.spec,
    initial: ring!.initial,
    seeds: 40,
    delays: undefined,
    coverage: lmutinRarePaths,
    abort: false,
  });
  const k6 = lkcsFamilies()[1]!;
  csCompliance({
    it,
    name: `${k6.name} coverage`,
    factory: k6.factory,
    spec: k6.spec,
    sequentialSpec: k6.tightened,
    initial: k6.initial,
    seeds: 40,
    coverage: lkcsRarePaths,
    abort: false,
  });
});
