/**
 * The configuration side of durable members (issue 27): `durability { dir }`, its checks, the
 * stores it names and their refusals (`--recover` without a store, a store without `--recover`,
 * another member's store); the member main's exit code for them is in durable-members.long.test.ts.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from '@critsec/store';
import { describe, expect, it } from 'vitest';
import { ALGORITHMS } from '../src/algorithm-resolve.js';
import { parseClusterConfig } from '../src/config-cluster.js';
import { createLocalCluster } from '../src/config-local.js';
import { transportOptionsFor } from '../src/config-transport.js';
import { openMemberStore } from '../src/member-durable.js';
import { openDurable } from '../src/member-durable-run.js';
import { tempDirs } from './helpers.js';

const tempDir = tempDirs('critsec-durable-config-');

const base = {
  version: 1,
  n: 2,
  insecure: true,
  processes: [
    { id: 0, host: '127.0.0.1', port: 7001 },
    { id: 1, host: '127.0.0.1', port: 7002 },
  ],
  workload: { rounds: 1 },
  log: 'shared.log',
};

function local(dir: string) {
  return createLocalCluster({
    dir,
    n: 2,
    insecure: true,
    algorithm: 'mutex',
    workload: { rounds: 1 },
    durability: true,
  });
}

describe('durability in the cluster configuration', () => {
  it('needs an algorithm with crash recovery, naming those that have it', () => {
    const recovering = ALGORITHMS.filter((d) => d.crashRecovery === true).map((d) => d.name);
    expect(recovering).toEqual(expect.arrayContaining(['mutex', 'ricart-agrawala']));
    expect(() => parseClusterConfig({ ...base, algorithm: 'gcs', durability: { dir: 'stores' } })).toThrow(
      `durability needs an algorithm with crash recovery, and gcs has none; the algorithms that have it: ${recovering.join(', ')}`,
    );
    expect(
      parseClusterConfig({ ...base, algorithm: 'mutex', durability: { dir: 'stores' } }).durability,
    ).toEqual({
      dir: 'stores',
    });
  });

  it("refuses 'resume' without durability, and 'reset' for critsec's algorithms with the way out", () => {
    expect(() =>
      parseClusterConfig({ ...base, algorithm: 'mutex', transport: { onPeerRestart: 'resume' } }),
    ).toThrow(/'resume' needs durability/);
    expect(() =>
      parseClusterConfig({ ...base, algorithm: 'mutex', transport: { onPeerRestart: 'reset' } }),
    ).toThrow(/give the configuration a durability \{ dir \} and restart members with --recover/);
  });

  it("createLocalCluster({ durability: true }) keeps the stores next to the configuration; the members' transports resume", async () => {
    const loaded = await local(tempDir());
    expect(loaded.config.durability).toEqual({ dir: 'stores' });
    expect(transportOptionsFor(loaded, 0).onPeerRestart).toBe('resume');
    expect(() =>
      parseClusterConfig({
        ...base,
        algorithm: 'mutex',
        durability: { dir: 'stores' },
        transport: { onPeerRestart: 'refuse' },
      }),
    ).toThrow(
      /durability needs transport.onPeerRestart 'resume' \(its default with durability\), not 'refuse'/,
    );
  });
});

describe("a member's store", () => {
  it('refuses --recover without a store, a first start over an existing one, and another member’s, each naming the way out', async () => {
    const loaded = await local(tempDir());
    const missing = await openMemberStore(loaded, 0, true).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(StoreError);
    expect((missing as StoreError).reason).toBe('missing');
    expect((missing as Error).message).toMatch(/must not rejoin as new .* without --recover/);
    const first = await openMemberStore(loaded, 1, false);
    expect(first.recovered).toBeUndefined();
    await first.store.close();
    const dir = loaded.resolve('stores');
    expect(existsSync(join(dir, 'member-1.lmdb'))).toBe(true);
    const again = await openMemberStore(loaded, 1, false).catch((e: unknown) => e);
    expect((again as StoreError).reason).toBe('exists');
    expect((again as Error).message).toMatch(/restart member 1 with --recover/);
    const back = await openMemberStore(loaded, 1, true);
    expect(back.recovered).toEqual({ cs: undefined, transport: undefined, member: undefined });
    await back.store.close();
    copyFileSync(join(dir, 'member-1.lmdb'), join(dir, 'member-0.lmdb'));
    const foreign = await openMemberStore(loaded, 0, true).catch((e: unknown) => e);
    expect((foreign as StoreError).reason).toBe('foreign');
  });

  it('--recover without durability is a ConfigurationError', async () => {
    const loaded = await createLocalCluster({
      dir: tempDir(),
      n: 2,
      insecure: true,
      algorithm: 'mutex',
      workload: { rounds: 1 },
    });
    await expect(openDurable(loaded, 0, true)).rejects.toThrow(
      /--recover needs a cluster configuration with durability/,
    );
  });
});
