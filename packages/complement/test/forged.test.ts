/**
 * Issue 15: the extreme-value property check of `@critsec/testing` on complements. Co-A adds no
 * message of its own (Thm. 1: Co-A.entry is A.exit and vice versa), so the check runs on what the
 * inner object sends: the reference central mutex (`req` tags) and Co-Co-A. The complement of
 * MUTIN (k-mutual exclusion) is checked in `@critsec/gcs` (`kMutex`).
 */
import { globalSpec, mutexSpec } from '@critsec/core';
import { centralMutex, extremeValueCheck, type MessageValidator } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { complement } from '../src/index.js';

/**
 * The reference central mutex's schema (internal to @critsec/testing), restated: a `type` among
 * its four and a `req` that is a safe integer ≥ 0 (`counterSchema`).
 */
const centralProtocol: MessageValidator = {
  is: (msg) => {
    const m = msg as { type?: unknown; req?: unknown };
    return (
      ['REQUEST', 'GRANT', 'RELEASE', 'CANCEL'].includes(m.type as string) &&
      Number.isSafeInteger(m.req) &&
      (m.req as number) >= 0
    );
  },
};

describe('complement: extreme-value property check', () => {
  it('Co-(central mutex), the (n−1, n)-CS: every type × field × extreme value keeps the rule', async () => {
    const report = await extremeValueCheck({
      label: 'co-central-4',
      factory: complement(centralMutex()),
      spec: globalSpec(3, 4, 4),
      initial: ['InCS', 'InCS', 'InCS', 'InCS'],
      protocols: { '': centralProtocol },
      seeds: [1, 2],
      rounds: 2,
    });
    console.info(`co-central: ${report.runs} forged runs`, report.perSite);
    expect(report.failures).toEqual([]);
    expect(report.types['']).toEqual(['GRANT', 'RELEASE', 'REQUEST']);
  });

  it('Co-Co-(central mutex), mutual exclusion again: every type × field × extreme value keeps the rule', async () => {
    const report = await extremeValueCheck({
      label: 'coco-central-4',
      factory: complement(complement(centralMutex())),
      spec: mutexSpec(4),
      protocols: { '': centralProtocol },
      seeds: [1, 2],
      rounds: 2,
    });
    expect(report.failures).toEqual([]);
    expect(report.types['']).toEqual(['GRANT', 'RELEASE', 'REQUEST']);
  });
});
