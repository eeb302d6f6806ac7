/*
 * Figures READMEs print that no package's own tests can reach: the @critsec/harness example (its
 * package cannot depend on an algorithm package) prints `true 8 2`.
 */
import { mutexSpec } from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { ricartAgrawala } from '@critsec/mutex';
import { describe, expect, it } from 'vitest';

describe('README figures', () => {
  it('packages/harness/README.md: Ricart–Agrawala over 5, sequential, 2 rounds → true 8 2', async () => {
    const cluster = createCluster({ factory: ricartAgrawala(), spec: mutexSpec(5), seed: 1 });
    const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2 });
    await cluster.close();
    expect([r.ok, r.perPair.mean, r.waiting.entry.max]).toEqual([true, 8, 2]);
  });
});
