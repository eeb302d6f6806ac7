import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, type CSState } from '@critsec/core';
import {
  type ClusterAlgorithmRegistry,
  type ClusterWorkloadContext,
  checkSharedLog,
  createLocalCluster,
  readSharedLog,
  runClusterNode,
} from '../src/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { runWorkload } from '../src/member.js';
import { resolveCluster } from '../src/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-member-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The algorithm by name, as a member program would bring it.
const algorithms: ClusterAlgorithmRegistry = {
  gcs: {
    createFactory: (_params, { n, initial }) =>
      resolveCluster({
        algorithm: 'gcs',
        n,
        params: {
          l: 1,
          k: 2,
          coterie: 'majority',
          init: initial.flatMap((s, i) => (s === 'InCS' ? [i] : [])).join(','),
        },
      }).factory,
  },
};
const initial: CSState[] = ['InCS', 'OutCS', 'OutCS'];

async function cluster(name: string, settings: unknown) {
  return createLocalCluster({
    dir: join(tmp, name),
    n: 3,
    algorithm: 'gcs',
    initial,
    bounds: { l: 1, k: 2 },
    workload: { rounds: 6, thinkMs: 1, holdMs: 1, module: '@critsec/cluster/member', settings },
    insecure: true,
  });
}

describe('@critsec/cluster/member: critsec’s member workload as a cluster workload module', () => {
  it('the (1,2)-GCS on 3 members: every member completes its rounds, finished ones cycle uncounted, the shared log is safe', async () => {
    const loaded = await cluster('gcs', { seed: 5 });
    const reports = await Promise.all(
      [0, 1, 2].map((id) => runClusterNode({ configPath: loaded.path, id, algorithms, logger: null })),
    );
    expect(reports.map((r) => [r.rounds, r.errors])).toEqual([
      [6, []],
      [6, []],
      [6, []],
    ]);
    const { records, malformed } = readSharedLog(loaded.resolve(loaded.config.log));
    expect(malformed).toBe(0);
    const check = checkSharedLog(records, { n: 3, l: 1, k: 2, initial });
    expect(check.violations).toEqual([]);
    expect(check.sequenceErrors).toEqual([]);
    expect(check.ok).toBe(true);
    // Counted calls are 2 · rounds per member; the uncounted ones come on top (or none, if a member finished last).
    for (let p = 0; p < 3; p++) {
      const called = records.filter((r) => r.p === p && (r.e === 'entry-called' || r.e === 'exit-called'));
      expect(called.length).toBeGreaterThanOrEqual(12);
    }
    expect(records.filter((r) => r.e === 'done')).toHaveLength(3);
  });

  it('refuses settings that are not { seed? } before it makes any call', async () => {
    for (const settings of [{ seed: -1 }, { seed: 1.5 }, { seed: 1, workload: 'sequential' }]) {
      const ctx = { workload: { rounds: 1, settings } } as unknown as ClusterWorkloadContext;
      await expect(runWorkload(ctx)).rejects.toThrow(ConfigurationError);
      await expect(runWorkload(ctx)).rejects.toThrow(
        /@critsec\/cluster\/member: workload\.settings.*settings holds \{ seed\? \}/,
      );
    }
  });

  it('is what the subpath export names (a workload module: runWorkload)', async () => {
    const mod = (await import('@critsec/cluster/member')) as Record<string, unknown>;
    expect(mod.runWorkload).toBe(runWorkload);
  });
});
