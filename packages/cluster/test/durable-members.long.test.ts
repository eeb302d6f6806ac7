/**
 * Durable members over real processes (issue 27): members SIGKILLed at random instants — holders
 * of the CS and arbiters alike — and restarted with `--recover` rejoin under the same identity
 * from their LMDB stores; the cluster keeps completing entries after every restart, the run ends
 * ok and the shared-log check finds no violation. Counted by progress, never by a short deadline.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createRng } from '@critsec/core';
import { noProgressMs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { createLocalCluster } from '../src/config-local.js';
import { type ClusterNodeProgress, launchCluster } from '../src/index.js';
import { tempDirs } from './helpers.js';

const tempDir = tempDirs('critsec-durable-');

/** Maekawa over majority(5), durable, with fast reconnection (a restart is noticed at once). */
function durableMutex(rounds: number) {
  return createLocalCluster({
    dir: tempDir(),
    n: 5,
    algorithm: 'mutex',
    params: { coterie: 'majority' },
    workload: { rounds, holdMs: 5, thinkMs: 10 },
    durability: true,
    transport: { heartbeatIntervalMs: 100, heartbeatTimeoutMs: 1_000, reconnect: { maxDelayMs: 200 } },
  });
}

/**
 * Runs the cluster, killing a member `kills` times: the `i`-th kill once `gap` entries completed
 * since the last restart — every other one a member right after its entry (it holds the CS), the
 * others a member drawn at random from `seed` (an arbiter of someone's quorum, maybe waiting).
 */
async function killAndRestart(rounds: number, kills: number, gap: number, seed: number) {
  const loaded = await durableMutex(rounds);
  const run = launchCluster({ configPath: loaded.path, member: 'critsec', timeoutMs: noProgressMs() * 5 });
  const rng = createRng(seed);
  const victims: { id: number; holder: boolean }[] = [];
  const afterRestart: number[] = [];
  let since = 0;
  let busy = false;
  run.onProgress((p: ClusterNodeProgress) => {
    if (p.event !== 'entry-done') return;
    if (afterRestart.length > 0) afterRestart[afterRestart.length - 1]!++;
    since++;
    if (busy || victims.length >= kills || since < gap) return;
    const holder = victims.length % 2 === 0;
    const id = holder ? p.id : Math.floor(rng.next() * 5);
    busy = true;
    victims.push({ id, holder });
    void run.kill(id).then(() => {
      run.restart(id);
      afterRestart.push(0);
      since = 0;
      busy = false;
    });
  });
  const result = await run.done;
  return { result, victims, afterRestart };
}

describe('durable members: SIGKILL and restart with --recover', () => {
  it('Maekawa over majority(5): 5 kills of holders and arbiters, each restarted; entries after every restart, no violation', async () => {
    const { result, victims, afterRestart } = await killAndRestart(10, 5, 4, 27);
    expect(result.reason).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.check.violationCount).toBe(0);
    expect(victims.length).toBe(5);
    expect(victims.filter((v) => v.holder).length).toBe(3);
    expect(result.deaths.map((d) => d.id)).toEqual(victims.map((v) => v.id));
    // the cluster kept completing entries after every restart
    expect(afterRestart.length).toBe(5);
    expect(Math.min(...afterRestart)).toBeGreaterThan(0);
  });

  it('a refused store ends the member main with exit code 78 and the way out', async () => {
    const loaded = await durableMutex(1);
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const main = fileURLToPath(new URL('../src/member-main.ts', import.meta.url));
    const args = ['--conditions=@critsec/source', '--import', `file://${tsx}`, main];
    const r = spawnSync(
      process.execPath,
      [...args, '--config', loaded.path, '--id', '0', '--member', 'critsec', '--recover'],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toMatch(/member 0: .*must not rejoin as new/);
    expect(r.status).toBe(78);
  });
});
