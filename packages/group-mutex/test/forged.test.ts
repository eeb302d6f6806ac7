/**
 * Issue 15: the extreme-value property check of `@critsec/testing` on group mutual exclusion
 * (Joung, IEEE TPDS 2003): Maekawa_M (Fig. 5–6; `ts` is the Lamport clock, the run must still
 * complete; `req` and the group `g` are tags) and Maekawa_S (Fig. 7; `p`, `g`, `sn` name the
 * requester, its group and its request: tags).
 */
import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { extremeValueCheck, type ForgedSite } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { groupMutex, maekawaMProtocol, maekawaSProtocol } from '../src/index.js';
import { anyGroup } from './helpers.js';

const classify = (s: ForgedSite) => (s.field === 'ts' ? 'clock' : 'tag');

describe('extreme-value property check', () => {
  for (const variant of ['M', 'S'] as const) {
    it(`Maekawa_${variant} over surficial(4,2): every type × field × extreme value keeps the rule`, async () => {
      const system = surficial(4, 2);
      const report = await extremeValueCheck<number>({
        label: `maekawa-${variant} surficial(4,2)`,
        factory: groupMutex({ system, variant }),
        spec: groupSpec(system.m, system.n),
        request: anyGroup(system.m),
        protocols: { '': variant === 'M' ? maekawaMProtocol : maekawaSProtocol },
        classify,
        // Maekawa_S's forged runs cost about eight times Maekawa_M's: one seed in the fast suite
        seeds: variant === 'S' ? [1] : [1, 2],
        rounds: 2,
      });
      console.info(`maekawa-${variant}: ${report.runs} forged runs`, report.perSite);
      expect(report.failures).toEqual([]);
      expect(report.types['']).toEqual(
        expect.arrayContaining(
          variant === 'M' ? ['LOCKED', 'REQUEST', 'UNLOCK'] : ['GRANT', 'REQUEST', 'UNLOCK'],
        ),
      );
    });
  }
});
