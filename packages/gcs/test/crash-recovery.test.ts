import { globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { gcs, kMutex } from '../src/index.js';

// Crashes and restarts in the simulator (issue 27; the durable layer of @critsec/harness: a step's
// messages leave only once its state is committed; a crash may lose the unsynced write): 3
// crashes a run, losing unsynced writes and not — 0 violations, nobody stuck after the last
// restart. k-mutex = Co-MUTIN(n−k) and (l,k)-GCS = compose(MUTIN(l), Co-MUTIN(n−k)), Maekawa
// as mx. The long suite (crash-recovery.long.test.ts) runs 10⁴ seeds of the GCS.
describe('crash recovery in the simulator', () => {
  crashRecoverySuite({
    it,
    name: 'kMutex(2), majority(4)',
    factory: kMutex({ k: 2, coterie: majority(4) }),
    spec: globalSpec(0, 2, 4),
    seeds: 40,
    rounds: 2,
  });
  crashRecoverySuite({
    it,
    name: '(1,2)-GCS, majority(3)',
    factory: gcs({ l: 1, k: 2, coterie: majority(3) }),
    spec: globalSpec(1, 2, 3),
    seeds: 40,
    rounds: 2,
  });
  crashRecoverySuite({
    it,
    name: '(1,3)-GCS, majority(5)',
    factory: gcs({ l: 1, k: 3, coterie: majority(5) }),
    spec: globalSpec(1, 3, 5),
    seeds: 15,
    rounds: 2,
  });
});
