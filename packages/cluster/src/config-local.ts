/**
 * A ready-to-run loopback cluster on disk ({@link createLocalCluster}): certificates (fresh, or an
 * existing directory's), free ports, `cluster.json` in the format of config-cluster.ts, and an
 * empty shared log — what `critsec cluster` and the tests launch.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigurationError, type CSState } from '@critsec/core';
import { createDevCertificates, freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import type { ClusterDurabilityConfig } from './config-durability.js';
import {
  type ClusterConfig,
  type ClusterSpecConfig,
  type ClusterTransportConfig,
  type ClusterWorkloadConfig,
  type LoadedClusterConfig,
  loadClusterConfig,
  parseClusterConfig,
} from './config-cluster.js';

/** Options of {@link createLocalCluster}. */
export interface LocalClusterOptions {
  /** Directory to write `cluster.json`, certificates and the shared log into (created). */
  readonly dir: string;
  /** Number of processes, an integer ≥ 1. */
  readonly n: number;
  /** The algorithm: a module path (absolute, or relative to `dir`), or a name the member program's registry knows. */
  readonly algorithm: string;
  /** The algorithm's parameters (any JSON), written to the configuration's `params`. */
  readonly params?: unknown;
  /** The initial configuration, one state per process (default every process OutCS). */
  readonly initial?: readonly CSState[];
  /** The bounds the shared-log check verifies: l ≤ |InCS| ≤ k (default mutual exclusion, 0 and 1). */
  readonly bounds?: {
    /** Least number of processes InCS. */
    l: number;
    /** Greatest number of processes InCS (l < k ≤ n). */
    k: number;
  };
  /** The problem the shared-log check verifies, instead of `bounds`. */
  readonly spec?: ClusterSpecConfig;
  /** What each member does. */
  readonly workload: ClusterWorkloadConfig;
  /** First port (ports `basePort … basePort+n-1`); default: free ports chosen by the OS ({@link freeLoopbackPorts}). */
  readonly basePort?: number;
  /** Plain TCP on loopback instead of mutual TLS (demos only). */
  readonly insecure?: boolean;
  /**
   * A directory of existing certificates to use instead of making new ones: `ca.pem`, and
   * `p<id>.cert.pem` / `p<id>.key.pem` for every id `0 … n-1` (the layout this function writes
   * into `dir` itself). The configuration names them by absolute path.
   */
  readonly certificateDir?: string;
  /** Settings of every member's TCP transport. */
  readonly transport?: ClusterTransportConfig;
  /**
   * Durable members (issue 27): `true` keeps their stores in `stores/` next to the configuration,
   * `{ dir }` in `dir` (relative to the configuration's directory). Default: none.
   */
  readonly durability?: true | ClusterDurabilityConfig;
  /** Time a process waits for all its peers to connect, in ms (default 30 000). */
  readonly readyTimeoutMs?: number;
  /**
   * The members' other deadlines, in ms (`callTimeoutMs`, `peerDownTimeoutMs`, `finishTimeoutMs`,
   * `shutdownTimeoutMs`; defaults as in the configuration file) — e.g. all of them long, for a
   * run that must not fail only because the machine is busy.
   */
  readonly deadlines?: Pick<
    ClusterConfig,
    'callTimeoutMs' | 'peerDownTimeoutMs' | 'finishTimeoutMs' | 'shutdownTimeoutMs'
  >;
}

/**
 * Writes a ready-to-run loopback cluster into `dir`: a fresh CA and per-process certificates
 * (keys with mode 0600; or the existing ones of `certificateDir`), `cluster.json`, and an empty
 * shared log. Returns the loaded configuration.
 *
 * @throws ConfigurationError for an invalid resulting configuration, `certificateDir` together
 *   with `insecure`, or a `certificateDir` without the files of every process.
 */
export async function createLocalCluster(options: LocalClusterOptions): Promise<LoadedClusterConfig> {
  const { dir, n } = options;
  const certDir = options.certificateDir === undefined ? undefined : resolve(options.certificateDir);
  if (certDir !== undefined) {
    if (options.insecure === true) {
      throw new ConfigurationError('createLocalCluster: certificateDir and insecure exclude each other');
    }
    const names = [
      'ca.pem',
      ...Array.from({ length: n }, (_, i) => [`p${i}.cert.pem`, `p${i}.key.pem`]).flat(),
    ];
    const missing = names.filter((f) => !existsSync(join(certDir, f)));
    if (missing.length > 0) {
      throw new ConfigurationError(
        `createLocalCluster: certificateDir ${certDir} lacks ${missing.slice(0, 4).join(', ')}${missing.length > 4 ? ', …' : ''}; it needs ca.pem and p<id>.cert.pem / p<id>.key.pem for ids 0 … ${n - 1}`,
      );
    }
  }
  mkdirSync(dir, { recursive: true });
  const ports =
    options.basePort === undefined
      ? await freeLoopbackPorts(n)
      : Array.from({ length: n }, (_, i) => options.basePort! + i);
  const processes: ClusterConfig['processes'] = [];
  let ca: string | undefined;
  if (options.insecure === true) {
    for (let id = 0; id < n; id++) processes.push({ id, host: '127.0.0.1', port: ports[id]! });
  } else if (certDir !== undefined) {
    ca = join(certDir, 'ca.pem');
    for (let id = 0; id < n; id++) {
      const [cert, key] = [join(certDir, `p${id}.cert.pem`), join(certDir, `p${id}.key.pem`)];
      processes.push({ id, host: '127.0.0.1', port: ports[id]!, cert, key });
    }
  } else {
    const certs = await createDevCertificates(n);
    writeFileSync(join(dir, 'ca.pem'), certs.ca);
    ca = 'ca.pem';
    for (const p of certs.processes) {
      const cert = `p${p.id}.cert.pem`;
      const key = `p${p.id}.key.pem`;
      writeFileSync(join(dir, cert), p.cert);
      writeFileSync(join(dir, key), p.key, { mode: 0o600 });
      chmodSync(join(dir, key), 0o600);
      processes.push({ id: p.id, host: '127.0.0.1', port: ports[p.id]!, cert, key });
    }
  }
  const config = parseClusterConfig({
    version: 1,
    n,
    processes,
    ...(ca === undefined ? {} : { ca }),
    ...(options.insecure === true ? { insecure: true } : {}),
    algorithm: options.algorithm,
    ...(options.params === undefined ? {} : { params: options.params }),
    ...(options.initial === undefined ? {} : { initial: [...options.initial] }),
    ...(options.bounds === undefined ? {} : { bounds: options.bounds }),
    ...(options.spec === undefined ? {} : { spec: options.spec }),
    workload: options.workload,
    log: 'shared.log',
    ...(options.transport === undefined ? {} : { transport: options.transport }),
    ...(options.durability === undefined
      ? {}
      : { durability: options.durability === true ? { dir: 'stores' } : options.durability }),
    ...(options.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: options.readyTimeoutMs }),
    ...options.deadlines,
  });
  const path = join(dir, 'cluster.json');
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  writeFileSync(join(dir, 'shared.log'), '');
  return loadClusterConfig(path);
}
