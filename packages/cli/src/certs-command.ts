/*
 * `critsec certs`: certificates for a real deployment — a cluster CA and one certificate per
 * process naming it in a SAN URI `critsec://process/<id>` (createDevCertificates of
 * @critsec/transport-tcp), written in the layout `critsec cluster --certs` and the cluster
 * configuration example of the README use.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError } from '@critsec/core';
import { createDevCertificates } from '@critsec/transport-tcp';
import { parseInteger } from '@critsec/cluster';

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
}

/**
 * Writes `ca.pem`, `ca.key.pem`, and `p<id>.cert.pem` / `p<id>.key.pem` per process (keys with
 * mode 0600) into `out`; returns the file names.
 * @throws ConfigurationError for a bad n, days or host list, or an unwritable directory.
 */
export async function writeCertificates(input: CertificatesInput): Promise<string[]> {
  const n = parseInteger('n', input.n, 1);
  const days = parseInteger('days', input.days ?? 365, 1, 3650);
  const hosts = (input.hosts ?? '127.0.0.1,localhost')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h.length > 0);
  if (hosts.length === 0) throw new ConfigurationError('--hosts: give at least one host name or IP address');
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
  return files;
}
