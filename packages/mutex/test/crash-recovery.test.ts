import { mutexSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { maekawa, ricartAgrawala } from '../src/index.js';

// Crashes and restarts in the simulator (seeded; the durable layer of @critsec/harness: a
// step's messages leave only once its state is committed; a crash may lose the unsynced write):
// 3 crashes a run, losing unsynced writes and not — 0 violations, nobody stuck after the last
// restart.
describe('crash recovery in the simulator', () => {
  crashRecoverySuite({
    it,
    name: 'Maekawa, majority(5)',
    factory: maekawa({ coterie: majority(5) }),
    spec: mutexSpec(5),
    seeds: 50,
  });
  crashRecoverySuite({
    it,
    name: 'Maekawa, grid(9)',
    factory: maekawa({ coterie: grid(9) }),
    spec: mutexSpec(9),
    seeds: 20,
  });
  crashRecoverySuite({
    it,
    name: 'Maekawa with fencing tokens (issue 28), majority(5)',
    factory: maekawa({ coterie: majority(5), fencing: true }),
    spec: mutexSpec(5),
    seeds: 15,
  });
  // a ttl well above the restart delays ([1, 10]): grants outlive a crash and recovery, so the
  // monitor's exclusion of the code must hold; what is checked is that renewals, reclaims and
  // re-armed timers of recovered grants keep every process going
  crashRecoverySuite({
    it,
    name: 'Maekawa with a ttl of 60 (issue 28), majority(5)',
    factory: maekawa({ coterie: majority(5), ttl: 60 }),
    spec: mutexSpec(5),
    seeds: 10,
  });
  crashRecoverySuite({
    it,
    name: 'Ricart–Agrawala, n = 5',
    factory: ricartAgrawala(),
    spec: mutexSpec(5),
    seeds: 50,
  });
});
