/**
 * Issue 15: the extreme-value property check of `@critsec/testing` on MUTIN(l) (Kamei &
 * Kakugawa, IJNC 2019, Algorithms 1–2) and its inner Maekawa mutex (channel `mx`). MUTIN's
 * numeric fields (`reqCnt`, the ids of `procsInCS`) name requests and processes: tags. Maekawa's
 * `ts` is a clock: the run must still complete.
 */
import { globalSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { maekawaProtocol } from '@critsec/mutex';
import { extremeValueCheck, type ForgedSite } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { mutin, mutinProtocol } from '../src/index.js';

const protocols = { '': mutinProtocol, mx: maekawaProtocol };
const classify = (s: ForgedSite) => (s.channel === 'mx' && s.field === 'ts' ? 'clock' : 'tag');

describe('MUTIN: extreme-value property check', () => {
  for (const [label, coterie, l] of [
    ['majority(5), l = 2', majority(5), 2],
    ['grid(9), l = 3', grid(9), 3],
  ] as const) {
    it(`${label}: every type × field × extreme value keeps the rule`, async () => {
      const n = coterie.n;
      const report = await extremeValueCheck({
        label: `mutin ${label}`,
        factory: mutin({ l, coterie }),
        spec: globalSpec(l, n, n),
        initial: Array.from({ length: n }, () => 'InCS' as const),
        protocols,
        classify,
        seeds: [1],
        rounds: 2,
      });
      console.info(`mutin ${label}: ${report.runs} forged runs`, report.perSite);
      expect(report.failures).toEqual([]);
      expect(report.types['']).toEqual(['Ack', 'Acquire', 'Query', 'Release', 'Response1', 'Response2']);
      expect(report.types.mx).toContain('REQUEST');
    });
  }
});
