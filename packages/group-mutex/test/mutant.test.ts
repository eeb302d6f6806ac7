/**
 * The suite has teeth: a mutant of the grant rule — E.4 of Fig. 6 / D.2 of Fig. 8 without the
 * group test, i.e. a node grants a lock to any group — is caught by the group monitor within the
 * seeds the compliance suite runs, for both variants, and by the exhaustive exploration of the
 * smallest instance. The mutant is a pair of node subclasses (`mutant-nodes.ts`).
 */
import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { exploreSchedules } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { groupMutexWithRules } from '../src/group-mutex.js';
import { anyGroup, systems } from './helpers.js';
import { anyGroupNodes } from './mutant-nodes.js';

const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

describe('grant-rule mutant (a node locks for any group)', () => {
  for (const variant of ['M', 'S'] as const) {
    it(`Maekawa_${variant}: the group monitor catches it on every system of the matrix`, async () => {
      const caught: string[] = [];
      for (const [label, system] of systems()) {
        const factory = groupMutexWithRules({ system, variant }, 'default', anyGroupNodes);
        let first = 0;
        for (let seed = 1; seed <= 30 && first === 0; seed++) {
          const c = createCluster({ factory, spec: groupSpec(system.m, system.n), seed });
          const r = await runWorkload(c, { rounds: 2, request: anyGroup(system.m) });
          if (r.violation !== null) {
            expect(r.violation.message).toMatch(/different groups are InCS together/);
            first = seed;
          }
        }
        expect(first, `${label}: mutant not caught in 30 seeds`).toBeGreaterThan(0);
        caught.push(`${label} seed ${first}`);
      }
      report.push(`mutant Maekawa_${variant} caught: ${caught.join(', ')}`);
    });

    it(`Maekawa_${variant}: the exploration of surficial(3, 3) finds the violation`, async () => {
      const r = await exploreSchedules({
        cluster: {
          factory: groupMutexWithRules({ system: surficial(3, 3), variant }, 'default', anyGroupNodes),
          spec: groupSpec(3, 3),
        },
        rounds: 1,
        request: (_rng, i) => i % 2,
        maxStates: 3_000,
      });
      expect(r.failures.some((f) => f.kind === 'violation')).toBe(true);
    });
  }
});
