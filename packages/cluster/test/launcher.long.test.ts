import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noProgressMs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { type ClusterNodeProgress, createLocalCluster, launchCluster, readSharedLog } from '../src/index.js';
import { coordinatorMutexModule, tempDirs } from './helpers.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const tempDir = tempDirs('critsec-cluster-');

describe('clusters of real OS processes over mutual TLS, with the shared-log safety check', () => {
  it('runs a workload module of its own: finished members keep cycling until all are done, then abort', async () => {
    const dir = tempDir();
    const loaded = await createLocalCluster({
      dir,
      n: 3,
      algorithm: coordinatorMutexModule,
      workload: { rounds: 5, module: join(fixtures, 'cycling-workload.ts') },
    });
    const result = await launchCluster({ configPath: loaded.path, timeoutMs: noProgressMs() }).done;
    expect(result.reason).toBeUndefined();
    expect(result.check.ok).toBe(true);
    expect(result.reports.map((r) => r?.rounds)).toEqual([5, 5, 5]); // only counted entries are reported
    const { records } = readSharedLog(loaded.resolve(loaded.config.log));
    const total = records.filter((r) => r.e === 'entry-done').length;
    const aborted = records.filter((r) => r.e === 'entry-aborted').length;
    expect(total).toBeGreaterThanOrEqual(15);
    // Every uncounted call ended: done, or aborted and logged as such.
    expect(records.filter((r) => r.e === 'entry-called').length).toBe(total + aborted);
  });

  it('the check catches a broken CS object (several processes InCS at once)', async () => {
    const dir = tempDir();
    const loaded = await createLocalCluster({
      dir,
      n: 3,
      algorithm: join(fixtures, 'no-mutex.ts'),
      workload: { rounds: 4, holdMs: 40 },
    });
    const result = await launchCluster({ configPath: loaded.path, timeoutMs: noProgressMs() }).done;
    expect(result.ok).toBe(false);
    expect(result.reason).toMatch(/shared-log check failed: \d+ violation/);
    expect(result.check.violationCount).toBeGreaterThan(0);
    expect(result.check.violations[0]!.kind).toBe('upper');
    expect(result.check.maxCertainlyInCS).toBeGreaterThan(1);
    // Everyone still completed its rounds: the failure is the safety check's.
    expect(result.reports.map((r) => r?.rounds)).toEqual([4, 4, 4]);
  });

  it('a member killed with SIGKILL while InCS: the others wait, and continue once it is back', async () => {
    const dir = tempDir();
    const victim = 3;
    const loaded = await createLocalCluster({
      dir,
      n: 4,
      algorithm: coordinatorMutexModule,
      params: { coordinator: 0 },
      workload: { rounds: 6, holdMs: 30, thinkMs: 1 },
      // The papers assume no crashes; 'reset' lets the restarted member start a new session,
      // and the fixture's JOIN makes the coordinator forget its predecessor's grant.
      transport: { onPeerRestart: 'reset', heartbeatIntervalMs: 100, heartbeatTimeoutMs: 1_000 },
    });
    const run = launchCluster({ configPath: loaded.path, timeoutMs: noProgressMs() });
    const seen: ClusterNodeProgress[] = [];
    let killed = false;
    const downtime = 600;
    run.onProgress((p) => {
      seen.push(p);
      if (!killed && p.id === victim && p.event === 'entry-done' && p.round === 2) {
        killed = true;
        // Killed while it holds the coordinator's grant: nobody else can enter until it is back.
        void run.kill(victim).then(() => setTimeout(() => run.restart(victim), downtime));
      }
    });
    const result = await run.done;
    expect(killed).toBe(true);
    expect(result.reason).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.exits.filter((e) => e.id === victim).map((e) => e.signal)).toEqual(['SIGKILL', null]);
    expect(result.reports.map((r) => r?.rounds)).toEqual([6, 6, 6, 6]);
    expect(result.check.violations).toEqual([]);
    // The log shows the crash, the wait, and the restart.
    const { records } = readSharedLog(loaded.resolve(loaded.config.log));
    const crashed = records.findIndex((r) => r.e === 'crashed');
    const restarted = records.findIndex((r, i) => i > crashed && r.p === victim && r.e === 'start');
    expect(crashed).toBeGreaterThan(0);
    expect(records[crashed]).toMatchObject({ p: victim, sig: 'SIGKILL' });
    expect(restarted).toBeGreaterThan(crashed);
    const enteredWhileDown = records.slice(crashed, restarted).filter((r) => r.e === 'entry-done');
    expect(enteredWhileDown).toEqual([]); // the others waited
    const waitMs = records[restarted]!.t - records[crashed]!.t;
    expect(waitMs).toBeGreaterThanOrEqual(downtime - 50);
    const afterwards = records.slice(restarted).filter((r) => r.e === 'entry-done' && r.p !== victim);
    expect(afterwards.length).toBeGreaterThan(0); // and continued
    // Two incarnations of the victim wrote to the log.
    expect(new Set(records.filter((r) => r.p === victim && r.e !== 'crashed').map((r) => r.inc)).size).toBe(
      2,
    );
    // The survivors saw the restart as a session reset.
    expect(result.reports[0]!.transport.connections).toBeGreaterThan(3);
    expect(seen.some((p) => p.id === victim && p.event === 'rounds-done')).toBe(true);
  });
});
