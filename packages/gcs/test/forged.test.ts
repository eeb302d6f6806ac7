/**
 * Issue 15: the extreme-value property check of `@critsec/testing` on the (l,k)-GCS
 * (compose(MUTIN(l), Co-MUTIN(n−k)), Algorithm 3) and on k-mutual exclusion (the complement of
 * MUTIN(n−k)). Every channel of the stack is forged: MUTIN's tags (`reqCnt`, `procsInCS` ids) and
 * the inner Maekawa mutexes' clocks (`ts`, which must leave the run able to complete) and tags.
 */
import { globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { maekawaProtocol } from '@critsec/mutex';
import { mutinProtocol } from '@critsec/mutin';
import { extremeValueCheck, type ForgedSite } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { gcs, kMutex } from '../src/index.js';

/** Maekawa's `ts` is its Lamport clock; everything else names a request or a process. */
const classify = (s: ForgedSite) => (s.channel.endsWith('mx') && s.field === 'ts' ? 'clock' : 'tag');

describe('extreme-value property check', () => {
  it('(1,2)-GCS over majority(3): every channel × type × field × extreme value keeps the rule', async () => {
    const report = await extremeValueCheck({
      label: 'gcs (1,2) majority(3)',
      factory: gcs({ l: 1, k: 2, coterie: majority(3) }),
      spec: globalSpec(1, 2, 3),
      protocols: {
        lmin: mutinProtocol,
        'lmin/mx': maekawaProtocol,
        kmex: mutinProtocol,
        'kmex/mx': maekawaProtocol,
      },
      classify,
      seeds: [1],
      rounds: 2,
    });
    console.info(`gcs: ${report.runs} forged runs`, report.perSite);
    expect(report.failures).toEqual([]);
    expect(Object.keys(report.types).sort()).toEqual(['kmex', 'kmex/mx', 'lmin', 'lmin/mx']);
  });

  it('2-mutual exclusion (Co-MUTIN(3)) over majority(5): every type × field × extreme value keeps the rule', async () => {
    const report = await extremeValueCheck({
      label: 'kmutex 2 majority(5)',
      factory: kMutex({ k: 2, coterie: majority(5) }),
      spec: globalSpec(0, 2, 5),
      protocols: { '': mutinProtocol, mx: maekawaProtocol },
      classify,
      seeds: [1],
      rounds: 2,
    });
    console.info(`kmutex: ${report.runs} forged runs`, report.perSite);
    expect(report.failures).toEqual([]);
    expect(report.types['']).toEqual(expect.arrayContaining(['Query', 'Response1']));
  });
});
