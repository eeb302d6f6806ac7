import { mutexSpec } from '@critsec/core';
import { describe, it } from 'vitest';
import { crashRecoverySuite } from '../src/cs.js';
import { durableCentralMutex } from '../src/index.js';

// the crash mode at scale on the durable fixture: 2 × 1,000 seeds, 3 crashes a run
describe('crash recovery, long', () => {
  crashRecoverySuite({
    it,
    name: 'durable central mutex (n = 7)',
    factory: durableCentralMutex(),
    spec: mutexSpec(7),
    seeds: 1000,
  });
});
