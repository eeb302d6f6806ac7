import { mutexSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { maekawa } from '../src/index.js';

// ≥ 10⁴ seeds with crashes and restarts for Maekawa (issue 27): 2 configurations (losing
// unsynced writes, synced) × 2 coteries × 2,500 seeds, 3 crashes a run, two rounds per process
// (four cost 268 CPU-s, the largest of the long suites; the crashes land within two as well —
// the suite fails a configuration in which none happened).
describe('crash recovery in the simulator, long', () => {
  crashRecoverySuite({
    it,
    name: 'Maekawa, majority(5)',
    factory: maekawa({ coterie: majority(5) }),
    spec: mutexSpec(5),
    seeds: 2500,
    rounds: 2,
  });
  crashRecoverySuite({
    it,
    name: 'Maekawa, grid(9)',
    factory: maekawa({ coterie: grid(9) }),
    spec: mutexSpec(9),
    seeds: 2500,
    rounds: 2,
  });
});
