/*
 * The settings of a local cluster run (`critsec cluster`): the cluster description of
 * `resolveCluster` plus the workload, its times, the certificates, the directory, the ports and
 * the time limit — validated before anything is written or spawned.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigurationError, parseChoice, parseInteger, parseNonNegative } from '@critsec/core';
import { type AnyDescriptor, resolveCluster } from './algorithms.js';
import type { ClusterInput, ResolvedCluster } from './resolved.js';

/** Everything `critsec cluster` takes. */
export interface ClusterRunInput extends ClusterInput {
  /** The algorithms to find `algorithm` among (default: critsec's; add your own descriptors). */
  readonly algorithms?: readonly AnyDescriptor[];
  /** Rounds per process (default 20). */
  readonly rounds?: number | string;
  /** Seed of the members' think and hold times (default 1). */
  readonly seed?: number | string;
  /** `concurrent` (default) or `sequential` (one call in flight in the whole cluster, coordinated by member 0). */
  readonly workload?: string;
  /** Mean think time OutCS before an entry, ms (default 2). */
  readonly think?: number | string;
  /** Mean hold time InCS before an exit, ms (default 1). */
  readonly hold?: number | string;
  /** A directory of certificates from `critsec certs` (ca.pem, p<id>.cert.pem, p<id>.key.pem). */
  readonly certs?: string;
  /** Where to write cluster.json, certificates and the shared log (default: a temporary directory, removed afterwards). */
  readonly dir?: string;
  /** First port (default: free ports chosen by the OS). */
  readonly basePort?: number | string;
  /** Give up after this long, ms (default 300 000). */
  readonly timeout?: number | string;
}

/** A validated cluster run. */
export interface ClusterRunSettings {
  /** The algorithm, n, parameters and bounds. */
  readonly cluster: ResolvedCluster;
  /** `concurrent`, or `sequential`: member 0 coordinates one call at a time over the control channel. */
  readonly workload: 'concurrent' | 'sequential';
  /** Counted rounds per process. */
  readonly rounds: number;
  /** Seed of the members' think and hold times. */
  readonly seed: number;
  /** Mean think time OutCS before an entry, ms. */
  readonly think: number;
  /** Mean hold time InCS before an exit, ms. */
  readonly hold: number;
  /** Absolute path of the certificate directory, or `undefined` for fresh certificates. */
  readonly certs: string | undefined;
  /** Where to write the cluster, or `undefined` for a temporary directory. */
  readonly dir: string | undefined;
  /** First port, or `undefined` for free ports chosen by the OS. */
  readonly basePort: number | undefined;
  /** Give up after this long, ms. */
  readonly timeoutMs: number;
}

/**
 * Validates `critsec cluster`'s options.
 * @throws ConfigurationError (one line) for any invalid value, including a `--certs` directory
 *   without the certificates of every process.
 */
export function resolveClusterRun(input: ClusterRunInput): ClusterRunSettings {
  const cluster = resolveCluster(
    input,
    input.algorithms === undefined ? {} : { algorithms: input.algorithms },
  );
  const workload = parseChoice('workload', input.workload ?? 'concurrent', [
    'concurrent',
    'sequential',
  ] as const);
  const certs = input.certs === undefined ? undefined : resolve(input.certs);
  if (certs !== undefined) {
    const missing = [
      'ca.pem',
      ...Array.from({ length: cluster.n }, (_, i) => [`p${i}.cert.pem`, `p${i}.key.pem`]).flat(),
    ].filter((f) => !existsSync(join(certs, f)));
    if (missing.length > 0) {
      throw new ConfigurationError(
        `--certs ${input.certs}: missing ${missing.slice(0, 4).join(', ')}${missing.length > 4 ? ', …' : ''}; make them with: critsec certs --n ${cluster.n} --out ${input.certs}`,
      );
    }
  }
  return {
    cluster,
    workload,
    rounds: parseInteger('rounds', input.rounds ?? 20, 1),
    seed: parseInteger('seed', input.seed ?? 1, 0),
    think: parseNonNegative('think', input.think ?? 2),
    hold: parseNonNegative('hold', input.hold ?? 1),
    certs,
    dir: input.dir === undefined ? undefined : resolve(input.dir),
    basePort: input.basePort === undefined ? undefined : parseInteger('base-port', input.basePort, 1, 65535),
    timeoutMs: parseInteger('timeout', input.timeout ?? 300_000, 1),
  };
}
