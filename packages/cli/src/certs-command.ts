/*
 * `critsec certs`: certificates for a real deployment — a cluster CA and one certificate per
 * process naming it in a SAN URI `critsec://process/<id>` (createDevCertificates of
 * @critsec/transport-tcp), written in the layout `critsec cluster --certs` and the cluster
 * configuration example of the README use.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ConfigurationError } from '@critsec/core';
import { parseInteger } from '@critsec/core/kit';
import { createDevCertificates } from '@critsec/transport-tcp/setup';
import { type ClusterConfig, parseClusterConfig } from '@critsec/cluster';

/** Options of {@link writeCertificates} (strings as on the command line). */
export interface CertificatesInput {
  /** Number of processes (ids 0 … n−1). */
  readonly n: string | number;
  /** Output directory (created). */
  readonly out: string;
  /** Comma-separated host names / IP addresses for every certificate (default `127.0.0.1,localhost`). */
  readonly hosts?: string;
  /** Validity in days (default 365). */
  readonly days?: string | number;
  /** Overwrite existing certificate and key files in `out` (default false: refuse). */
  readonly force?: boolean;
  /**
   * Where to write the matching cluster configuration when `hosts` is given and names exactly one
   * host per process (process i on the i-th host; default `cluster.json`). Not written otherwise.
   */
  readonly config?: string;
  /** The port every member listens on in that configuration (default 7400). */
  readonly port?: string | number;
}

/** What {@link writeCertificates} wrote: the certificate files, and the configuration if any. */
export interface CertificatesWritten {
  /** File names written into `out`. */
  readonly files: string[];
  /** The cluster configuration's path, or why none was written. */
  readonly config:
    | {
        /** Path of the `cluster.json` written. */
        readonly path: string;
      }
    | {
        /** Why no configuration was written. */
        readonly skipped: string;
      };
}

/**
 * Writes `ca.pem`, `ca.key.pem`, and `p<id>.cert.pem` / `p<id>.key.pem` per process (keys with
 * mode 0600) into `out`; returns the file names.
 * @throws ConfigurationError for a bad n, days or host list (with one host per process: a host
 *   named twice, since every member listens on the one `port`), an unwritable directory, or — unless
 *   `force` — when `out` already holds any of the files (the keys of a running cluster would be
 *   lost); nothing is written then.
 */
export async function writeCertificates(input: CertificatesInput): Promise<CertificatesWritten> {
  const n = parseInteger('n', input.n, 1);
  const port = parseInteger('port', input.port ?? 7400, 1, 65535);
  const days = parseInteger('days', input.days ?? 365, 1, 3650);
  const hosts = (input.hosts ?? '127.0.0.1,localhost')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h.length > 0);
  if (hosts.length === 0) throw new ConfigurationError('--hosts: give at least one host name or IP address');
  const configPath = input.config ?? 'cluster.json';
  if (input.hosts !== undefined && hosts.length === n) refuseRepeatedHost(hosts, port);
  const config =
    input.hosts !== undefined && hosts.length === n
      ? clusterConfigFor(hosts, port, input.out, configPath)
      : undefined;
  const names = ['ca.pem', 'ca.key.pem'];
  for (let id = 0; id < n; id++) names.push(`p${id}.cert.pem`, `p${id}.key.pem`);
  const existing = names.map((name) => join(input.out, name));
  if (config !== undefined) existing.push(configPath);
  const clash = existing.filter((file) => existsSync(file)).map((file) => relative(input.out, file) || file);
  if (clash.length > 0 && input.force !== true) {
    const shown = clash.length > 4 ? `${clash.slice(0, 4).join(', ')}, …` : clash.join(', ');
    throw new ConfigurationError(
      `--out: ${input.out} already holds ${clash.length} of the files (${shown}); pass --force to overwrite them`,
    );
  }
  const certs = await createDevCertificates(n, { hosts, days });
  try {
    mkdirSync(input.out, { recursive: true });
  } catch (err) {
    throw new ConfigurationError(`--out: cannot create ${input.out}: ${(err as Error).message}`);
  }
  const files: string[] = [];
  const write = (name: string, text: string, secret = false) => {
    const path = join(input.out, name);
    writeFileSync(path, text, secret ? { mode: 0o600 } : {});
    if (secret) chmodSync(path, 0o600);
    files.push(name);
  };
  write('ca.pem', certs.ca);
  write('ca.key.pem', certs.caKey, true);
  for (const p of certs.processes) {
    write(`p${p.id}.cert.pem`, p.cert);
    write(`p${p.id}.key.pem`, p.key, true);
  }
  if (config === undefined) {
    return {
      files,
      config: {
        skipped: `--hosts names ${hosts.length} host(s) for ${n} processes (one per process writes ${configPath})`,
      },
    };
  }
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  return { files, config: { path: configPath } };
}

/**
 * With one host per process every member listens on the one `--port`: a host named twice would
 * put two members at one host:port (the configuration could never come up).
 * @throws ConfigurationError naming the host, the two processes and the ways out.
 */
function refuseRepeatedHost(hosts: readonly string[], port: number): void {
  const first = new Map<string, number>();
  hosts.forEach((host, id) => {
    const earlier = first.get(host.toLowerCase());
    if (earlier !== undefined) {
      throw new ConfigurationError(
        `--hosts: ${host} is named for processes ${earlier} and ${id}, and every member listens on --port ${port}, so both would be at ${host}:${port}; name one distinct host per process, or pass a host list that is not one per process (certificates only, no configuration) and write cluster.json with a distinct port per member on that host`,
      );
    }
    first.set(host.toLowerCase(), id);
  });
}

/**
 * A cluster configuration for these certificates: process i on `hosts[i]`:`port`, Maekawa mutual
 * exclusion over a grid coterie, 100 rounds (edit `algorithm`, `params` and `workload` as needed).
 * Paths are relative to the configuration file. Checked with `parseClusterConfig`.
 */
function clusterConfigFor(
  hosts: readonly string[],
  port: number,
  out: string,
  configPath: string,
): ClusterConfig {
  const dir = relative(dirname(configPath), out) || '.';
  const file = (name: string) => (dir === '.' ? name : `${dir}/${name}`);
  return parseClusterConfig({
    version: 1,
    n: hosts.length,
    ca: file('ca.pem'),
    processes: hosts.map((host, id) => ({
      id,
      host,
      port,
      cert: file(`p${id}.cert.pem`),
      key: file(`p${id}.key.pem`),
    })),
    algorithm: 'mutex',
    params: { coterie: 'grid' },
    workload: { rounds: 100, thinkMs: 5, holdMs: 2 },
    log: 'critsec.log',
  });
}
