/**
 * Durable members (issue 27): a member SIGKILLed at any instant and restarted with `--recover`
 * rejoins under the same identity from its LMDB store; the cluster keeps completing entries and
 * the shared-log check finds no violation. Counted by progress, never by a short deadline.
 */
import { noProgressMs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { createLocalCluster } from '../src/config-local.js';
import { type ClusterNodeProgress, launchCluster } from '../src/index.js';
import { tempDirs } from './helpers.js';

const tempDir = tempDirs('critsec-durable-');

describe('durable members: kill and restart with --recover', () => {
  it('Maekawa over majority(5): a member killed once and restarted rejoins; the run ends ok', async () => {
    const loaded = await createLocalCluster({
      dir: tempDir(),
      n: 5,
      algorithm: 'mutex',
      params: { coterie: 'majority' },
      workload: { rounds: 6, holdMs: 5, thinkMs: 5 },
      durability: true,
      transport: { heartbeatIntervalMs: 100, heartbeatTimeoutMs: 1_000 },
    });
    const run = launchCluster({ configPath: loaded.path, member: 'critsec', timeoutMs: noProgressMs() });
    let killed = false;
    let afterRestart = 0;
    run.onProgress((p: ClusterNodeProgress) => {
      if (killed && p.event === 'entry-done') afterRestart++;
      if (!killed && p.id === 2 && p.event === 'entry-done' && p.round === 2) {
        killed = true;
        void run.kill(2).then(() => run.restart(2));
      }
    });
    const result = await run.done;
    expect(result.reason).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.deaths.map((d) => d.id)).toEqual([2]);
    expect(result.check.violationCount).toBe(0);
    expect(afterRestart).toBeGreaterThan(0);
  });
});
