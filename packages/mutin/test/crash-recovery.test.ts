import { globalSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { ricartAgrawala } from '@critsec/mutex';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { mutin } from '../src/index.js';

// Crashes and restarts in the simulator (issue 27; the durable layer of @critsec/harness: a step's
// messages leave only once its state is committed; a crash may lose the unsynced write): 3
// crashes a run, losing unsynced writes and not — 0 violations, nobody stuck after the last
// restart. MUTIN(l) over Maekawa (the default mx) and over Ricart–Agrawala.
describe('crash recovery in the simulator', () => {
  crashRecoverySuite({
    it,
    name: 'MUTIN(2), majority(5)',
    factory: mutin({ l: 2, coterie: majority(5) }),
    spec: globalSpec(2, 5, 5),
    seeds: 25,
  });
  crashRecoverySuite({
    it,
    name: 'MUTIN(3), grid(9)',
    factory: mutin({ l: 3, coterie: grid(9) }),
    spec: globalSpec(3, 9, 9),
    seeds: 10,
  });
  crashRecoverySuite({
    it,
    name: 'MUTIN(1), majority(5), mx = Ricart–Agrawala',
    factory: mutin({ l: 1, coterie: majority(5), mx: ricartAgrawala() }),
    spec: globalSpec(1, 5, 5),
    seeds: 15,
  });
});
