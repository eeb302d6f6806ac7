/*
 * Every wait of a cluster member has a deadline and ends with a typed error, its transport
 * closed (issue 15): peers that never come up, an entry that is never granted, a peer that goes
 * away, members that never finish. And what the configuration refuses before any connection:
 * certificate files that are not there, `onPeerRestart: 'reset'` for critsec's algorithms.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import {
  ConfigurationError,
  type CSFactory,
  CSObjectBase,
  type ProcessContext,
  TransportError,
} from '@critsec/core';
import { PendingCall } from '@critsec/core/kit';
import { noProgressMs } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import {
  type ClusterAlgorithmRegistry,
  type ClusterNodeProgress,
  type ClusterWorkload,
  createLocalCluster,
  loadClusterConfig,
  parseClusterConfig,
  readSharedLog,
  runClusterNode,
  transportOptionsFor,
} from '../src/index.js';
import { runWorkload } from '../src/member.js';
import { tempDirs } from './helpers.js';

const tempDir = tempDirs('critsec-deadlines-');

/** An algorithm whose entry is never granted (it can be withdrawn); exit is immediate. */
class NeverGrants extends CSObjectBase {
  readonly #call = new PendingCall({ aborted: 'entry withdrawn', closed: 'closed' });
  constructor(ctx: ProcessContext) {
    super(ctx.id, ctx.initial[ctx.id] ?? 'OutCS');
  }
  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    this.#call.begin();
    return this.#call.wait(signal);
  }
  protected async doExit(): Promise<void> {}
  protected doClose(): void {
    this.#call.close();
  }
}
const never: ClusterAlgorithmRegistry = {
  never: { createFactory: (): CSFactory => (ctx) => new NeverGrants(ctx) },
};

/** A 2-member loopback cluster of `never` with the given extra configuration fields. */
async function cluster(extra: object, rounds = 1): Promise<string> {
  const loaded = await createLocalCluster({
    dir: tempDir(),
    n: 2,
    algorithm: 'never',
    workload: { rounds },
    insecure: true,
    readyTimeoutMs: noProgressMs(), // connecting is not what these tests time
  });
  writeFileSync(loaded.path, JSON.stringify({ ...loaded.config, ...extra }));
  return loaded.path;
}

/** True when `port` of 127.0.0.1 can be listened on again (nobody holds it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

const member = (configPath: string, id: number, more: Partial<Parameters<typeof runClusterNode>[0]> = {}) =>
  runClusterNode({ configPath, id, algorithms: never, logger: null, ...more }).then(
    () => null,
    (err: unknown) => err,
  );

describe('a member whose wait cannot end fails with a TransportError, its transport closed', () => {
  it('peers that never come up: readyTimeoutMs, and the listening port is released', async () => {
    const path = await cluster({ readyTimeoutMs: 300 });
    const err = await member(path, 0);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as Error).message).toBe('P0 is not connected to P1 after 300 ms');
    const port = loadClusterConfig(path).config.processes[0]!.port;
    expect(await portFree(port)).toBe(true);
  });

  it('an entry never granted: callTimeoutMs withdraws it (entry-aborted in the log) and fails both members', async () => {
    const path = await cluster({ callTimeoutMs: 300 });
    const errs = await Promise.all([member(path, 0), member(path, 1)]);
    for (const [id, err] of errs.entries()) {
      expect(err).toBeInstanceOf(TransportError);
      expect((err as Error).message).toBe(
        `P${id}: entry() of round 1 did not complete within 300 ms (callTimeoutMs)`,
      );
    }
    const loaded = loadClusterConfig(path);
    const { records } = readSharedLog(loaded.resolve(loaded.config.log));
    expect(
      records
        .filter((r) => r.e === 'entry-aborted')
        .map((r) => r.p)
        .sort(),
    ).toEqual([0, 1]);
  });

  it("critsec's member workload (the wall-clock engine) ends with the same TransportError", async () => {
    const path = await cluster({ callTimeoutMs: 300 }, 3);
    const errs = await Promise.all([0, 1].map((id) => member(path, id, { workload: runWorkload })));
    expect(errs.map((e) => (e as Error).message)).toEqual([
      'P0: entry() of round 1 did not complete within 300 ms (callTimeoutMs)',
      'P1: entry() of round 1 did not complete within 300 ms (callTimeoutMs)',
    ]);
  });

  it("ctx.entry / ctx.exit with { signal: {} }: the CS object's ConfigurationError, not a TypeError", async () => {
    const path = await cluster({});
    const seen: unknown[] = [];
    const bad: ClusterWorkload = async (ctx) => {
      const signal = {} as AbortSignal;
      seen.push(await ctx.entry(1, { signal }).catch((e: unknown) => e));
      seen.push(await ctx.exit(1, { signal }).catch((e: unknown) => e));
      await ctx.finish();
      return 0;
    };
    await Promise.all([0, 1].map((id) => member(path, id, { workload: bad })));
    expect(seen).toHaveLength(4);
    for (const e of seen) expect(e).toBeInstanceOf(ConfigurationError);
    expect((seen[0] as Error).message).toMatch(
      /^entry\(\) on P[01]: signal must be an AbortSignal, got an object$/,
    );
  });

  it('a peer that goes away: peer-down progress, then peerDownTimeoutMs', async () => {
    const path = await cluster({ peerDownTimeoutMs: 300 });
    const progress: ClusterNodeProgress[] = [];
    // P1 fails at once (its workload throws) and leaves; P0 waits for it to finish.
    const leaves: ClusterWorkload = async () => {
      throw new Error('P1 gives up');
    };
    const waits: ClusterWorkload = async (ctx) => {
      await ctx.allFinished;
      return 0;
    };
    const [e0, e1] = await Promise.all([
      member(path, 0, { workload: waits, onProgress: (p) => progress.push(p) }),
      member(path, 1, { workload: leaves }),
    ]);
    expect((e1 as Error).message).toBe('P1 gives up');
    expect(e0).toBeInstanceOf(TransportError);
    expect((e0 as Error).message).toMatch(
      /^P0: P1 has been unreachable for 300 ms \(peerDownTimeoutMs\); last: /,
    );
    expect(progress.map((p) => p.event)).toEqual(['ready', 'peer-down']);
    expect(progress[1]).toMatchObject({ id: 0, peer: 1 });
  });

  it('members that never finish: finishTimeoutMs after this member finished', async () => {
    const path = await cluster({ finishTimeoutMs: 300, peerDownTimeoutMs: 300 }, 0);
    const stays: ClusterWorkload = () => new Promise<number>(() => {}); // connected, never finishes
    const [e0, e1] = await Promise.all([member(path, 0), member(path, 1, { workload: stays })]);
    expect((e0 as Error).message).toBe(
      'P0: the other members did not finish within 300 ms of this one (finishTimeoutMs)',
    );
    // …and P1, whose peer left, ends by the peer deadline.
    expect((e1 as Error).message).toMatch(/^P1: P0 has been unreachable for 300 ms/);
  });
});

describe('the configuration refuses what cannot run, before any connection', () => {
  it('a missing key or CA file: a ConfigurationError naming the key and the file', async () => {
    const loaded = await createLocalCluster({
      dir: tempDir(),
      n: 2,
      algorithm: 'mutex',
      workload: { rounds: 1 },
    });
    const raw = JSON.parse(readFileSync(loaded.path, 'utf8'));
    raw.processes[1].key = 'gone/p1.key.pem';
    writeFileSync(loaded.path, JSON.stringify(raw));
    const again = loadClusterConfig(loaded.path);
    expect(() => transportOptionsFor(again, 0)).not.toThrow(); // each member reads only its own files
    const err = (() => {
      try {
        transportOptionsFor(again, 1);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toBe(
      `cluster config ${loaded.path}: processes[1].key: cannot read ${again.resolve('gone/p1.key.pem')} (no such file)`,
    );
    writeFileSync(loaded.path, JSON.stringify({ ...raw, ca: 'nope.pem' }));
    expect(() => transportOptionsFor(loadClusterConfig(loaded.path), 0)).toThrow(
      /: ca: cannot read .*nope\.pem/,
    );
  });

  it('a shared log that cannot be opened: a ConfigurationError naming log and the file', async () => {
    const path = await cluster({ log: 'no-such-dir/shared.log' });
    const err = await member(path, 0);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toBe(
      `cluster config ${path}: log: cannot open ${loadClusterConfig(path).resolve('no-such-dir/shared.log')} for appending (no such file or directory)`,
    );
  });

  it("transport.onPeerRestart: 'reset' is refused for critsec's algorithms (a member without its state), kept for modules", async () => {
    const loaded = await createLocalCluster({
      dir: tempDir(),
      n: 2,
      algorithm: 'x',
      workload: { rounds: 1 },
    });
    const raw = { ...loaded.config, transport: { onPeerRestart: 'reset' } };
    for (const algorithm of ['mutex', 'gcs', 'local-cs']) {
      expect(() => parseClusterConfig({ ...raw, algorithm })).toThrow(
        new ConfigurationError(
          `cluster config: transport.onPeerRestart: 'reset' is refused for ${algorithm}: a member restarted without its state would deadlock the cluster; give the configuration a durability { dir } and restart members with --recover (their sessions resume), or leave it 'refuse' (the default without durability) and restart the whole cluster after a crash`,
        ),
      );
      expect(() =>
        parseClusterConfig({ ...raw, algorithm, transport: { onPeerRestart: 'refuse' } }),
      ).not.toThrow();
    }
    // An algorithm module of your own that recovers from restarts (the launcher's tests' coordinator) may use it.
    expect(
      parseClusterConfig({ ...raw, algorithm: './my-recovering-mutex.js' }).transport?.onPeerRestart,
    ).toBe('reset');
  });

  it('two members at one host:port are refused, naming both ids (host names case-insensitive)', () => {
    const config = (processes: { id: number; host: string; port: number }[]) => ({
      version: 1,
      n: processes.length,
      insecure: true,
      processes,
      algorithm: 'mutex',
      workload: { rounds: 1 },
      log: 'shared.log',
    });
    expect(() =>
      parseClusterConfig(
        config([
          { id: 0, host: 'node-a', port: 7400 },
          { id: 1, host: 'node-b', port: 7400 },
          { id: 2, host: 'NODE-A', port: 7400 },
        ]),
      ),
    ).toThrow(
      new ConfigurationError(
        'cluster config: processes 0 and 2 both listen on NODE-A:7400; give each member its own host:port (members on one machine need distinct ports)',
      ),
    );
    // one machine, distinct ports: fine
    expect(
      parseClusterConfig(
        config([
          { id: 0, host: '127.0.0.1', port: 7400 },
          { id: 1, host: '127.0.0.1', port: 7401 },
        ]),
      ).n,
    ).toBe(2);
  });
});
