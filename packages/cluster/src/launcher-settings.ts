/*
 * The settings of a local cluster run (`critsec cluster`): the run settings of config-run.ts
 * (cluster, workload, think and hold in ms) plus the certificates, the directory, the ports and
 * the time limit — validated before anything is written or spawned.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigurationError } from '@critsec/core';
import { parseInteger } from '@critsec/core/kit';
import { type RunInput, type RunSettings, resolveRun } from './config-run.js';

/** Everything `critsec cluster` takes: a run (think and hold in ms) and where to run it. */
export interface ClusterRunInput extends RunInput {
  /** A directory of certificates from `critsec certs` (ca.pem, p<id>.cert.pem, p<id>.key.pem). */
  readonly certs?: string;
  /** Where to write cluster.json, certificates and the shared log (default: a temporary directory, removed afterwards). */
  readonly dir?: string;
  /** First port (default: free ports chosen by the OS). */
  readonly basePort?: number | string;
  /** Give up after this long, ms (default 300 000). */
  readonly timeout?: number | string;
}

/** A validated cluster run: think and hold in wall-clock ms. */
export interface ClusterRunSettings extends RunSettings<'ms'> {
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
  const run = resolveRun(input, 'ms');
  const { cluster } = run;
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
    ...run,
    certs,
    dir: input.dir === undefined ? undefined : resolve(input.dir),
    basePort: input.basePort === undefined ? undefined : parseInteger('base-port', input.basePort, 1, 65535),
    timeoutMs: parseInteger('timeout', input.timeout ?? 300_000, 1),
  };
}
