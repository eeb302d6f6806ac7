/**
 * Clusters of n separate OS processes over TCP/TLS on loopback, through the launcher of
 * `@critsec/cluster` (its member program `cluster-node`), running this package's algorithm
 * module (`src/cluster-algorithm.ts`, which resolves names through `@critsec/cluster`) and the
 * `critsec` member workload (`@critsec/cluster/member`), checked from the shared `O_APPEND` log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CSState } from '@critsec/core';
import { noProgressMs } from '@critsec/testing';
import {
  type ClusterConfig,
  type ClusterRun,
  createLocalCluster,
  type LoadedClusterConfig,
  launchCluster,
} from '@critsec/cluster';
import type { ClusterAlgorithmParams } from '../../src/cluster-algorithm.js';

const algorithmModule = fileURLToPath(new URL('../../src/cluster-algorithm.ts', import.meta.url));
/** The workload module: `critsec`'s member workload (a package specifier the members import). */
const workloadModule = '@critsec/cluster/member';

/** Options of {@link startOsCluster}. */
export interface OsClusterOptions {
  readonly n: number;
  readonly params: ClusterAlgorithmParams;
  readonly bounds: { readonly l: number; readonly k: number };
  readonly initial: readonly CSState[];
  readonly rounds: number;
  readonly thinkMs?: number;
  readonly holdMs?: number;
  readonly seed?: number;
  /** Default: the cycling workload of `@critsec/cluster/member`; `null`: the launcher's default rounds workload. */
  readonly workloadModule?: string | null;
  readonly transport?: ClusterConfig['transport'];
  /** Abort the run after this long, ms (default `noProgressMs()`: a hang, not a slow machine). */
  readonly timeoutMs?: number;
}

/** A started OS-process cluster; `close()` kills whatever still runs and removes its directory. */
export interface OsCluster {
  readonly config: LoadedClusterConfig;
  readonly run: ClusterRun;
  readonly dir: string;
  readonly stderr: string[];
  close(): Promise<void>;
}

/** Writes the configuration (fresh CA and certificates, OS-chosen ports) into a temporary directory and launches the members. */
export async function startOsCluster(o: OsClusterOptions): Promise<OsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-it-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const module = o.workloadModule === undefined ? workloadModule : o.workloadModule;
    const config = await createLocalCluster({
      dir,
      n: o.n,
      algorithm: algorithmModule,
      params: o.params,
      initial: o.initial,
      bounds: { l: o.bounds.l, k: o.bounds.k },
      workload: {
        rounds: o.rounds,
        thinkMs: o.thinkMs ?? 2,
        holdMs: o.holdMs ?? 1,
        ...(module === null ? {} : { module, settings: { seed: o.seed ?? 1 } }),
      },
      readyTimeoutMs: noProgressMs(),
      // every member deadline long: the run may be slow on a busy machine, never failed by it
      deadlines: {
        callTimeoutMs: noProgressMs(),
        peerDownTimeoutMs: noProgressMs(),
        finishTimeoutMs: noProgressMs(),
        shutdownTimeoutMs: noProgressMs(),
      },
      ...(o.transport === undefined ? {} : { transport: o.transport }),
    });
    const stderr: string[] = [];
    const run = launchCluster({
      configPath: config.path,
      timeoutMs: o.timeoutMs ?? noProgressMs(),
      onOutput: (id, stream, line) => {
        if (stream === 'stderr' && stderr.length < 50) stderr.push(`P${id}: ${line}`);
      },
    });
    let closed = false;
    return {
      config,
      run,
      dir,
      stderr,
      async close() {
        if (closed) return;
        closed = true;
        await run.stop(); // kills members still running (no-op once done)
        remove();
      },
    };
  } catch (err) {
    remove();
    throw err;
  }
}
