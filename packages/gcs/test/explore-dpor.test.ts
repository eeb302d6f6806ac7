/**
 * Every schedule, up to equivalence (dynamic partial-order reduction, test/dpor.ts), of the
 * smallest GCS instances, in the simulator's controlled mode: no violation of l ≤ #InCS ≤ k in
 * any configuration some linearization reaches, and no deadlock. The reduction is cross-checked
 * against a plain stateful search (every reachable state) on the same instances: both must reach
 * the same set of terminal states. And it has teeth: it finds the violation of an object that
 * enters without asking and the deadlock of one that is never granted.
 */
import { type CSState, globalSpec, mutexSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { mutin } from '@critsec/mutin';
import { neverGrantMutex, unsafeMutex } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { gcs } from '../src/index.js';
import { gcsComponents, gcsMessage, mutinComponents, mutinMessage } from './components.js';
import { type DporOptions, exploreDpor } from './dpor.js';

const rounds =
  Number(process.env.CRITSEC_EXPLORE_ROUNDS ?? '') > 0 ? Number(process.env.CRITSEC_EXPLORE_ROUNDS) : 1;

const instances: { name: string; options: DporOptions }[] = [
  {
    name: '(1,2)-GCS over majority(2)',
    options: {
      cluster: { factory: gcs({ l: 1, k: 2, coterie: majority(2) }), spec: globalSpec(1, 2, 2) },
      components: gcsComponents,
      messageComponent: gcsMessage,
    },
  },
  {
    name: '(0,1)-GCS over majority(2)',
    options: {
      cluster: { factory: gcs({ l: 0, k: 1, coterie: majority(2) }), spec: globalSpec(0, 1, 2) },
      components: gcsComponents,
      messageComponent: gcsMessage,
    },
  },
  {
    name: 'MUTIN(1) over majority(2)',
    options: {
      cluster: { factory: mutin({ l: 1, coterie: majority(2) }), spec: globalSpec(1, 2, 2) },
      components: mutinComponents,
      messageComponent: mutinMessage,
    },
  },
];

describe('exhaustive exploration with partial-order reduction', () => {
  for (const { name, options } of instances) {
    it(`${name}, ${rounds} rounds per process: no violation, no deadlock; same terminal states as a stateful search`, async () => {
      const r = await exploreDpor({ ...options, rounds });
      const full = await exploreDpor({ ...options, rounds, naive: 'stateful' });
      console.log(
        `${name}, ${rounds} rounds: ${r.executions} executions (${r.completed} complete, ${r.frozen} frozen, ${r.sleepBlocked} sleep-blocked), ` +
          `${r.terminalStates.size} terminal states; stateful search: ${full.states} states`,
      );
      expect(r.exhaustive && full.exhaustive).toBe(true);
      expect(r.failures).toEqual([]);
      expect(full.failures).toEqual([]);
      expect(r.completed).toBeGreaterThan(0);
      expect([...r.terminalStates].sort()).toEqual([...full.terminalStates].sort());
    });
  }

  it('finds a safety violation and a deadlock', async () => {
    const unsafe = await exploreDpor({ cluster: { factory: unsafeMutex(), spec: mutexSpec(3) } });
    expect(unsafe.failures.some((f) => f.kind === 'violation' && /more than k = 1/.test(f.message))).toBe(
      true,
    );
    const never = await exploreDpor({ cluster: { factory: neverGrantMutex(), spec: mutexSpec(2) } });
    expect(never.failures.some((f) => f.kind === 'deadlock')).toBe(true);
  });

  it('checks every consistent cut: a violation that the executed order does not show is still found', async () => {
    // two processes that enter and leave without asking, (1,2)-CS from one InCS: P0 leaving
    // before P1 enters breaks l = 1 in some linearization, whichever order is run first
    const initial: CSState[] = ['InCS', 'OutCS'];
    const r = await exploreDpor({ cluster: { factory: unsafeMutex(), spec: globalSpec(1, 2, 2), initial } });
    expect(r.failures.some((f) => f.kind === 'violation')).toBe(true);
  });
});
