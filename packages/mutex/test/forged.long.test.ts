/**
 * Issue 15, long suite: the extreme-value property check of `@critsec/testing` on Maekawa
 * (grid, majority, projective plane) and Ricart–Agrawala over more seeds than the fast test.
 */
import { mutexSpec } from '@critsec/core';
import { grid, majority, projectivePlane } from '@critsec/coteries';
import { extremeValueCheck, type ForgedSite } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { maekawa, maekawaProtocol, ricartAgrawala, ricartAgrawalaProtocol } from '../src/index.js';

const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
const maekawaClock = (s: ForgedSite) => (s.field === 'ts' ? 'clock' : 'tag');

describe('extreme-value property check, 8 seeds', () => {
  for (const [label, coterie] of [
    ['grid(9)', grid(9)],
    ['majority(5)', majority(5)],
    ['projective plane q = 2', projectivePlane(2)],
  ] as const) {
    it(`Maekawa ${label}`, async () => {
      const report = await extremeValueCheck({
        label: `maekawa ${label}`,
        factory: maekawa({ coterie }),
        spec: mutexSpec(coterie.n),
        protocols: { '': maekawaProtocol },
        classify: maekawaClock,
        seeds,
        rounds: 3,
      });
      console.info(`maekawa ${label}: ${report.runs} forged runs, 0 failures expected`);
      expect(report.failures).toEqual([]);
    });
  }

  it('Ricart–Agrawala n = 5', async () => {
    const report = await extremeValueCheck({
      label: 'ricart-agrawala',
      factory: ricartAgrawala(),
      spec: mutexSpec(5),
      protocols: { '': ricartAgrawalaProtocol },
      seeds,
      rounds: 3,
    });
    expect(report.failures).toEqual([]);
  });
});
