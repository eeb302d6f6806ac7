import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message, ProcessId, Suspicions } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  type ClusterNodeProgress,
  type ClusterWorkload,
  createLocalCluster,
  loadClusterConfig,
  runClusterNode,
  transportOptionsFor,
} from '../src/index.js';
import { createFactory as coordinatorMutex } from '../../transport-tcp/test/fixtures/coordinator-mutex.js';
import { tempDirs } from './helpers.js';

const tempDir = tempDirs('critsec-node-');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The nearest-rank q-quantile. */
const rank = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

describe('runClusterNode({ workload }): a member program with a workload of its own', () => {
  it('runs it instead of the configured module; its channel holds early messages; counted/uncounted calls', async () => {
    const dir = tempDir();
    const rounds = 4;
    const loaded = await createLocalCluster({
      dir,
      n: 2,
      algorithm: 'coordinator',
      workload: { rounds, module: './not-there.js' }, // never loaded: the option wins
      insecure: true,
    });
    const heard: [ProcessId, ProcessId, Message][] = [];
    const waits: number[][] = [[], []];
    const progress: ClusterNodeProgress[] = [];
    const workload: ClusterWorkload = async (ctx) => {
      // Member 0 talks at once; member 1 subscribes only later — what arrived meanwhile is held.
      if (ctx.id === 0) for (const p of ctx.control.peers) ctx.control.send(p, { type: 'HELLO' });
      else await sleep(150);
      ctx.control.onMessage((from, msg) => heard.push([ctx.id, from, msg]));
      for (let r = 1; r <= rounds; r++) {
        waits[ctx.id]!.push(await ctx.entry(r));
        expect(await ctx.exit(r)).toBeGreaterThanOrEqual(0);
      }
      await ctx.entry(rounds + 1, { counted: false });
      await ctx.exit(rounds + 1, { counted: false });
      await ctx.finish();
      return rounds;
    };
    // every member's object gets its transport's failure detector as ctx.suspicions (issue 28 §4)
    const suspicions: (Suspicions | undefined)[] = [];
    const createFactory: typeof coordinatorMutex = (params) => {
      const inner = coordinatorMutex(params);
      return (ctx) => {
        suspicions[ctx.id] = ctx.suspicions;
        return inner(ctx);
      };
    };
    const reports = await Promise.all(
      [0, 1].map((id) =>
        runClusterNode({
          configPath: loaded.path,
          id,
          algorithms: { coordinator: { createFactory } },
          workload,
          logger: null,
          onProgress: (p) => progress.push(p),
        }),
      ),
    );
    expect(heard.filter(([, , m]) => m.type === 'HELLO').map(([to, from]) => [to, from])).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(suspicions.map((s) => typeof s?.onChange)).toEqual(['function', 'function']);
    for (const [id, r] of reports.entries()) {
      expect(r.rounds).toBe(rounds); // the uncounted call is not in the report
      // The report's percentiles are the nearest-rank ones of the counted entries' waits.
      const sorted = [...waits[id]!].sort((a, b) => a - b);
      expect(sorted).toHaveLength(rounds);
      expect(r.entryWaitMs).toEqual({ p50: rank(sorted, 0.5), p99: rank(sorted, 0.99), max: sorted.at(-1) });
      const mine = progress.filter(
        (p) => p.id === id && (p.event === 'entry-done' || p.event === 'exit-done'),
      );
      expect(mine.filter((p) => p.counted === undefined)).toHaveLength(2 * rounds);
      expect(mine.filter((p) => p.counted === false).map((p) => [p.event, p.round])).toEqual([
        ['entry-done', rounds + 1],
        ['exit-done', rounds + 1],
      ]);
    }
  });
});

describe('ctx.startTogether(): the start barrier of a workload', () => {
  it('resolves on a member only once every member has arrived, and twice is once', async () => {
    const loaded = await createLocalCluster({
      dir: tempDir(),
      n: 3,
      algorithm: 'coordinator',
      workload: { rounds: 1 },
      insecure: true,
    });
    const arrived = new Set<ProcessId>();
    const sawAll: boolean[] = [];
    const workload: ClusterWorkload = async (ctx) => {
      if (ctx.id === 2) await sleep(150); // the last one to arrive
      arrived.add(ctx.id);
      await ctx.startTogether();
      await ctx.startTogether(); // idempotent: no second barrier
      sawAll[ctx.id] = arrived.size === 3;
      await ctx.entry(1);
      await ctx.exit(1);
      await ctx.finish();
      return 1;
    };
    await Promise.all(
      [0, 1, 2].map((id) =>
        runClusterNode({
          configPath: loaded.path,
          id,
          algorithms: { coordinator: { createFactory: coordinatorMutex } },
          workload,
          logger: null,
        }),
      ),
    );
    expect(sawAll).toEqual([true, true, true]);
  });
});

describe('createLocalCluster({ certificateDir })', () => {
  it('uses the certificates of a directory (by absolute path) instead of making new ones', async () => {
    const first = await createLocalCluster({ dir: tempDir(), n: 3, algorithm: 'x', workload: { rounds: 1 } });
    const certDir = join(first.path, '..');
    const dir = tempDir();
    const loaded = await createLocalCluster({
      dir,
      n: 3,
      algorithm: 'x',
      workload: { rounds: 1 },
      certificateDir: certDir,
    });
    expect(loaded.config.ca).toBe(join(certDir, 'ca.pem'));
    expect(loaded.config.processes.map((p) => p.cert)).toEqual(
      [0, 1, 2].map((i) => join(certDir, `p${i}.cert.pem`)),
    );
    expect(existsSync(join(dir, 'ca.pem'))).toBe(false);
    expect(readFileSync(join(dir, 'shared.log'), 'utf8')).toBe('');
    expect(transportOptionsFor(loadClusterConfig(loaded.path), 2).tls).toEqual({
      ca: readFileSync(join(certDir, 'ca.pem'), 'utf8'),
      cert: readFileSync(join(certDir, 'p2.cert.pem'), 'utf8'),
      key: readFileSync(join(certDir, 'p2.key.pem'), 'utf8'),
    });
    // A directory for fewer processes, or together with insecure: refused before anything is written.
    const other = tempDir();
    const again = (extra: { n: number; insecure?: boolean }) =>
      createLocalCluster({
        dir: other,
        algorithm: 'x',
        workload: { rounds: 1 },
        certificateDir: certDir,
        ...extra,
      });
    await expect(again({ n: 4 })).rejects.toThrow(
      /lacks p3\.cert\.pem, p3\.key\.pem; it needs ca\.pem and p<id>\.cert\.pem/,
    );
    await expect(again({ n: 3, insecure: true })).rejects.toThrow(
      /certificateDir and insecure exclude each other/,
    );
    expect(existsSync(join(other, 'cluster.json'))).toBe(false);
  });
});

describe('transportOptionsFor: the transport keys of cluster.json', () => {
  it('hands every admission-control and heartbeat key to the transport, and no unset one', async () => {
    const transport = {
      unauthenticatedTimeoutMs: 400,
      maxUnauthenticated: 5,
      maxUnauthenticatedPerSource: 2,
      reservedPeerSlots: 0,
      heartbeatIntervalMs: 150,
      suspectAfterMs: 900,
    };
    const loaded = await createLocalCluster({
      dir: tempDir(),
      n: 2,
      algorithm: 'x',
      workload: { rounds: 1 },
      insecure: true,
      transport,
    });
    const options = transportOptionsFor(loadClusterConfig(loaded.path), 1);
    expect(options).toMatchObject(transport);
    expect(Object.values(options)).not.toContain(undefined);
    expect('heartbeatTimeoutMs' in options).toBe(false);
  });

  it('refuses a negative reservedPeerSlots or a zero maxUnauthenticated in the file', async () => {
    for (const bad of [{ reservedPeerSlots: -1 }, { maxUnauthenticated: 0 }]) {
      await expect(
        createLocalCluster({
          dir: tempDir(),
          n: 2,
          algorithm: 'x',
          workload: { rounds: 1 },
          insecure: true,
          transport: bad,
        }),
      ).rejects.toThrow(/transport\.(reservedPeerSlots|maxUnauthenticated)/);
    }
  });
});
