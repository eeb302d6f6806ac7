/**
 * Crashes and restarts in the simulator (issue 27; the durable layer of `@critsec/harness`: a
 * step's messages leave only once its state is committed; a crash may lose the unsynced write):
 * 3 crashes a run, losing unsynced writes and not — 0 violations of the local bounds, nobody
 * stuck after the last restart. LMUTIN and LMUTEX rest InCS / OutCS after `recover()`; LKCS
 * completes the move a crash cut (README "Crash recovery").
 */
import { crashRecoverySuite, crashSweep } from '@critsec/testing/cs';
import { describe, expect, it } from 'vitest';
import { lmutinFamilies, lmutexFamilies, lkcsFamilies, type Instance } from './families.js';

const pick = (xs: Instance[], name: string): Instance => xs.find((x) => x.name === name)!;

const cases: [Instance, number][] = [
  [pick(lmutinFamilies(), 'lmutin ring:6 l=1'), 30],
  [pick(lmutinFamilies(), 'lmutin complete:5 l=2'), 30],
  [pick(lmutexFamilies(), 'lmutex ring:6 k=1'), 30],
  [pick(lmutexFamilies(), 'lmutex grid:3x3 k=2'), 20],
  [pick(lkcsFamilies(), 'lkcs complete:5 (1,4)'), 10],
  [pick(lkcsFamilies(), 'lkcs complete:6 (1,4)'), 10],
];

describe('crash recovery in the simulator', () => {
  for (const [x, seeds] of cases) {
    crashRecoverySuite({ it, name: x.name, factory: x.factory, spec: x.spec, initial: x.initial, seeds });
  }
});

describe('LKCS: the Release a completed move owes survives a crash', () => {
  // complete:6 (1,4), seed 47, losing unsynced writes: a crash came after the step that flipped
  // P0 InCS and before its continuation's Release of MUTIN left; without `releaseDue` in the
  // durable state nobody sent it again, P0's next MUTIN request was set aside behind its own old
  // grant, and 6 processes were stuck
  it('seed 47: no violation, nobody stuck', async () => {
    const x = pick(lkcsFamilies(), 'lkcs complete:6 (1,4)');
    const r = await crashSweep({
      factory: x.factory,
      spec: x.spec,
      initial: x.initial,
      seeds: 1,
      firstSeed: 47,
      crashes: { count: 3, loseUnsynced: true },
    });
    expect([r.violations, r.stuck, r.lostWrites > 0]).toEqual([0, 0, true]);
  });
});
