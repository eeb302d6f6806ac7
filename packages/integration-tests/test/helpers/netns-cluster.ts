/**
 * A cluster of OS processes, one member per network namespace (`netns.ts`), over mutual TLS:
 * certificates for the members' addresses as `critsec certs --hosts` writes them (its layout,
 * from the same `createDevCertificates`), the cluster configuration of `createLocalCluster` with
 * each member at its namespace's address and port 7400, and the launcher of `@critsec/cluster`
 * starting each member's main under `ip netns exec` (`runUnder`). The members run
 * `src/partition-member.ts` (entry, hold, exit, think until the stop file; a call past its
 * `callTimeoutMs` written down and retried) and append to one shared log (the namespaces share
 * the file system), checked by the launcher when the run ends.
 *
 * `close()` kills the members still running, then removes the namespaces, then the directory —
 * on every path: the test's `afterEach`, a failed start, and (the namespaces) the process's exit.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ClusterRun,
  type ClusterTransportConfig,
  createLocalCluster,
  type LoadedClusterConfig,
  launchCluster,
  loadClusterConfig,
} from '@critsec/cluster';
import { noProgressMs } from '@critsec/testing';
import { createDevCertificates } from '@critsec/transport-tcp/setup';
import type { ClusterAlgorithmParams } from '../../src/cluster-algorithm.js';
import {
  CALL_TIMEOUTS_FILE,
  type CallTimeoutRecord,
  PARTITION_STOP_FILE,
} from '../../src/partition-member.js';
import { createNetnsHosts, type NetnsHosts } from './netns.js';

const algorithmModule = fileURLToPath(new URL('../../src/cluster-algorithm.ts', import.meta.url));
const workloadModule = fileURLToPath(new URL('../../src/partition-member.ts', import.meta.url));

/** Options of {@link startNetnsCluster}. */
export interface NetnsClusterOptions {
  readonly n: number;
  readonly params: ClusterAlgorithmParams;
  /** A member's deadline for one `entry()` or `exit()`, ms. */
  readonly callTimeoutMs: number;
  readonly thinkMs?: number;
  readonly holdMs?: number;
  readonly seed?: number;
  /** Settings of every member's TCP transport (e.g. the failure detector's `suspectAfterMs`). */
  readonly transport?: ClusterTransportConfig;
}

/** A started cluster in namespaces. */
export interface NetnsCluster {
  readonly hosts: NetnsHosts;
  readonly config: LoadedClusterConfig;
  readonly run: ClusterRun;
  readonly dir: string;
  /** The members' last stderr lines (for a failure's message). */
  readonly stderr: string[];
  /** The calls that ended past their deadline so far. */
  callTimeouts(): CallTimeoutRecord[];
  /** Tells the members to finish (the stop file). */
  stop(): void;
  close(): Promise<void>;
}

/**
 * Writes certificates for the hosts' addresses (the layout of `critsec certs`) and the cluster
 * configuration, every member at its host's address on port 7400; returns it loaded.
 */
async function writeConfiguration(
  dir: string,
  o: NetnsClusterOptions,
  hosts: NetnsHosts,
): Promise<LoadedClusterConfig> {
  const addresses = Array.from({ length: o.n }, (_, id) => hosts.address(id));
  const certDir = join(dir, 'certs');
  mkdirSync(certDir);
  const certs = await createDevCertificates(o.n, { hosts: addresses });
  writeFileSync(join(certDir, 'ca.pem'), certs.ca);
  for (const p of certs.processes) {
    writeFileSync(join(certDir, `p${p.id}.cert.pem`), p.cert);
    writeFileSync(join(certDir, `p${p.id}.key.pem`), p.key, { mode: 0o600 });
  }
  const local = await createLocalCluster({
    dir,
    n: o.n,
    certificateDir: certDir,
    basePort: 7400,
    algorithm: algorithmModule,
    params: o.params,
    workload: {
      rounds: 0,
      module: workloadModule,
      settings: { dir, seed: o.seed ?? 1, thinkMs: o.thinkMs ?? 2, holdMs: o.holdMs ?? 1 },
    },
    readyTimeoutMs: noProgressMs(),
    ...(o.transport === undefined ? {} : { transport: o.transport }),
    deadlines: {
      callTimeoutMs: o.callTimeoutMs,
      // a member cut off is unreachable for the partition's length: not a reason to end
      peerDownTimeoutMs: noProgressMs(),
      finishTimeoutMs: noProgressMs(),
      shutdownTimeoutMs: noProgressMs(),
    },
  });
  // every member at its namespace's address, all on port 7400
  const json = JSON.parse(readFileSync(local.path, 'utf8')) as {
    processes: { host: string; port: number }[];
  };
  json.processes.forEach((p, id) => {
    p.host = addresses[id]!;
    p.port = 7400;
  });
  writeFileSync(local.path, `${JSON.stringify(json, null, 2)}\n`);
  return loadClusterConfig(local.path);
}

/** The call-timeout lines the members wrote into `dir` so far. */
function readCallTimeouts(dir: string): CallTimeoutRecord[] {
  try {
    return readFileSync(join(dir, CALL_TIMEOUTS_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as CallTimeoutRecord);
  } catch {
    return [];
  }
}

/** Writes certificates and the configuration, makes the namespaces, launches the members. */
export async function startNetnsCluster(o: NetnsClusterOptions): Promise<NetnsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-netns-'));
  let hosts: NetnsHosts | undefined;
  const remove = () => {
    hosts?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    hosts = createNetnsHosts(o.n);
    const h = hosts;
    const config = await writeConfiguration(dir, o, h);
    const stderr: string[] = [];
    const run = launchCluster({
      configPath: config.path,
      timeoutMs: 24 * 3_600_000, // the test's progress-bounded waits end a hung run
      runUnder: (id) => h.runUnder(id),
      onOutput: (id, stream, line) => {
        if (stream !== 'stderr') return;
        stderr.push(`P${id}: ${line}`);
        if (stderr.length > 40) stderr.shift();
      },
    });
    let closed = false;
    return {
      hosts: h,
      config,
      run,
      dir,
      stderr,
      callTimeouts: () => readCallTimeouts(dir),
      stop() {
        writeFileSync(join(dir, PARTITION_STOP_FILE), '');
      },
      async close() {
        if (closed) return;
        closed = true;
        await run.stop(); // kills the members still running (a no-op once done)
        remove();
      },
    };
  } catch (err) {
    remove();
    throw err;
  }
}
