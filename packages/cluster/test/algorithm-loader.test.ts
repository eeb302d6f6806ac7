import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import * as tcpExports from '@critsec/transport-tcp';
import * as indexExports from '../src/index.js';
import {
  type ClusterAlgorithmRegistry,
  createLocalCluster,
  readSharedLog,
  runClusterNode,
} from '../src/index.js';
import { loadClusterAlgorithm } from '../src/algorithm-loader.js';
import { createFactory as coordinatorMutex } from '../../transport-tcp/test/fixtures/coordinator-mutex.js';
import { tempDirs } from './helpers.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const tempDir = tempDirs('critsec-registry-');

describe('loadClusterAlgorithm: a registry passed in by the caller, else a module', () => {
  it('takes a registered name from the registry as it is, without importing anything', async () => {
    const mod = { createFactory: coordinatorMutex };
    await expect(loadClusterAlgorithm('coordinator', { coordinator: mod })).resolves.toBe(mod);
  });

  it('loads a module path when the name is not registered (own properties only)', async () => {
    const path = join(fixtures, 'no-mutex.ts');
    const mod = await loadClusterAlgorithm(path, { coordinator: { createFactory: coordinatorMutex } });
    expect(typeof mod.createFactory).toBe('function');
    // `toString` is on every object's prototype, not a registered name: it is taken as a module
    // (which fails), never as Object.prototype.toString.
    const err = await loadClusterAlgorithm('toString', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/toString/);
    expect((err as Error).message).not.toMatch(/of the registry/);
  });

  it('names the registered algorithms when a name is neither registered nor importable', async () => {
    const registry: ClusterAlgorithmRegistry = {
      a: { createFactory: coordinatorMutex },
      b: { createFactory: coordinatorMutex },
    };
    const err = await loadClusterAlgorithm('paxos', registry).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/cannot load algorithm 'paxos'/);
    expect((err as Error).message).toMatch(/use a registered name \(a, b\) or a module path/);
    // Without a registry the message offers module paths only.
    await expect(loadClusterAlgorithm('paxos')).rejects.toThrow(/; use a module path or package specifier/);
  });

  it('refuses a registry entry or a module without createFactory', async () => {
    const bad = { x: {} } as unknown as ClusterAlgorithmRegistry;
    await expect(loadClusterAlgorithm('x', bad)).rejects.toThrow(/'x' of the registry has no createFactory/);
    await expect(loadClusterAlgorithm(join(fixtures, 'cycling-workload.ts'))).rejects.toThrow(
      /does not export createFactory/,
    );
  });

  it('the cluster machinery is this package’s: @critsec/transport-tcp exports none of it', () => {
    const moved = ['runNode', 'runClusterNode', 'launchCluster', 'createLocalCluster', 'checkSharedLog'];
    expect(moved.filter((k) => k in indexExports)).toEqual(moved);
    expect(moved.filter((k) => k in tcpExports)).toEqual([]);
  });
});

describe('runClusterNode({ algorithms }): a member program with its own registry', () => {
  it('two members in one process run a registered algorithm named in the configuration', async () => {
    const dir = tempDir();
    const loaded = await createLocalCluster({
      dir,
      n: 2,
      algorithm: 'coordinator', // not a path: only the registry knows it
      params: { coordinator: 1 },
      workload: { rounds: 4 },
      insecure: true,
    });
    const algorithms: ClusterAlgorithmRegistry = { coordinator: { createFactory: coordinatorMutex } };
    const reports = await Promise.all(
      [0, 1].map((id) => runClusterNode({ configPath: loaded.path, id, algorithms, logger: null })),
    );
    expect(reports.map((r) => [r.id, r.rounds, r.errors])).toEqual([
      [0, 4, []],
      [1, 4, []],
    ]);
    const { records } = readSharedLog(loaded.resolve(loaded.config.log));
    expect(records.filter((r) => r.e === 'entry-done')).toHaveLength(8);
    // Without the registry the same configuration is an unknown module.
    await expect(runClusterNode({ configPath: loaded.path, id: 0, logger: null })).rejects.toThrow(
      /cannot load algorithm 'coordinator'/,
    );
  });
});
