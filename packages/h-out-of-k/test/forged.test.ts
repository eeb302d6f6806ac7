/**
 * Issue 15: the extreme-value property check of `@critsec/testing` on h-out-of-k mutual exclusion
 * (Fig. 1). `ts` on the answers is the sender's Lamport clock (the run must still complete);
 * a request's clock `c` is its priority, `seq` its tag and `h` its unit count: forging them
 * changes what is asked, so they are tags (validity and termination only).
 */
import { hOutOfKSpec } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { extremeValueCheck, type ForgedSite } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { hOutOfK, hOutOfKProtocol } from '../src/index.js';
import { randomH } from './helpers.js';

const classify = (s: ForgedSite) => (s.field === 'ts' ? 'clock' : 'tag');

describe('extreme-value property check', () => {
  it('uniform n = 4, k = 2: every type × field × extreme value keeps the rule', async () => {
    const arbiter = uniformHKArbiter(4, 2);
    const report = await extremeValueCheck<number>({
      label: 'h-out-of-k uniform(4,2)',
      factory: hOutOfK({ k: 2, arbiter }),
      spec: hOutOfKSpec(2, 4),
      request: randomH(2),
      protocols: { '': hOutOfKProtocol(2) },
      classify,
      seeds: [1, 2],
      rounds: 2,
    });
    console.info(
      `h-out-of-k: ${report.runs} forged runs, ${report.rejected} variants rejected`,
      report.perSite,
    );
    expect(report.failures).toEqual([]);
    expect(report.types['']).toEqual(expect.arrayContaining(['OK', 'release', 'request']));
    // h ∈ 1..k: the schema's bound is found and CLOCK_MAX is refused there
    expect(report.rejected).toBeGreaterThan(0);
  });

  it('with fencing (issue 28): confirm, confirmed and the hs of OK keep the rule too', async () => {
    const report = await extremeValueCheck<number>({
      label: 'h-out-of-k uniform(4,2) fenced',
      factory: hOutOfK({ k: 2, arbiter: uniformHKArbiter(4, 2), fencing: true }),
      spec: hOutOfKSpec(2, 4),
      request: randomH(2),
      protocols: { '': hOutOfKProtocol(2) },
      classify,
      seeds: [1],
      rounds: 2,
    });
    expect(report.failures).toEqual([]);
    expect(report.types['']).toEqual(expect.arrayContaining(['OK', 'confirm', 'confirmed']));
  });
});
