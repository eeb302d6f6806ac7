/**
 * ≥ 2,000 seeds with crashes and restarts (issue 27), sized for the long suite's budget: LMUTIN
 * complete:5 l=2, LMUTEX ring:6 k=1 and LKCS complete:6 (1,4), each losing unsynced writes and
 * synced, 3 crashes and 4 rounds a run — 0 violations, nobody stuck after the last restart.
 */
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { type Instance, lkcsFamilies, lmutexFamilies, lmutinFamilies } from './families.js';

const pick = (xs: Instance[], name: string): Instance => xs.find((x) => x.name === name)!;

const cases: [Instance, number][] = [
  [pick(lmutinFamilies(), 'lmutin complete:5 l=2'), 400],
  [pick(lmutexFamilies(), 'lmutex ring:6 k=1'), 300],
  [pick(lkcsFamilies(), 'lkcs complete:6 (1,4)'), 300],
];

describe('crash recovery in the simulator, long', () => {
  for (const [x, seeds] of cases) {
    crashRecoverySuite({ it, name: x.name, factory: x.factory, spec: x.spec, initial: x.initial, seeds });
  }
});
