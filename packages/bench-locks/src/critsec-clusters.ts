/**
 * The critsec rows of the table over mutual TLS 1.3 on loopback: a cluster as n OS processes
 * (the launcher of `@critsec/cluster` running `bench/member.ts`, one `critsec` member runtime
 * per process) and the same cluster in this one process (n `tcpTransport`s with the same
 * configuration and certificates). Certificates are made once ({@link makeCertificates}) and
 * shared by every cluster of a run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createLocalCluster,
  launchCluster,
  type LoadedClusterConfig,
  transportOptionsFor,
} from '@critsec/cluster';
import { TransportError } from '@critsec/core';
import { type TcpTransport, tcpTransport } from '@critsec/transport-tcp';
import { BENCH_ALGORITHM, type BenchAlgorithm, benchAlgorithm } from './algorithm.js';
import { cpuClock } from './cpu.js';
import { type ClientsRun, type Round, type RoundCounts, runClients } from './drive.js';
import { csRound, type MemberRounds } from './member-workload.js';
import type { SystemSample } from './table.js';

/** `uncontended`: one client (the algorithm's driver); `contended`: every process. */
export type Mode = 'uncontended' | 'contended';

const MEMBER_ENTRY = fileURLToPath(new URL('../bench/member.ts', import.meta.url));

/** A directory of certificates for processes 0 … n−1 (`ca.pem`, `p<id>.cert.pem`, `p<id>.key.pem`). */
export interface Certificates {
  readonly dir: string;
  remove(): void;
}

/** Makes a cluster CA and certificates for n processes in a temporary directory. */
export async function makeCertificates(n: number): Promise<Certificates> {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-bench-certs-'));
  await createLocalCluster({ dir, n, algorithm: BENCH_ALGORITHM, workload: { rounds: 1 } });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function writeCluster(
  alg: BenchAlgorithm,
  n: number,
  certs: Certificates,
  workload: { rounds: number; settings?: unknown },
  dir: string,
): Promise<LoadedClusterConfig> {
  return createLocalCluster({
    dir,
    n,
    algorithm: BENCH_ALGORITHM,
    params: alg.params,
    initial: alg.initial,
    bounds: alg.bounds,
    workload,
    certificateDir: certs.dir,
    ...(alg.durable === true ? { durability: true as const } : {}),
  });
}

/**
 * With `BENCH_MEMBER_PROF=<dir>` in the environment, each member runs under `--cpu-prof` and
 * writes its CPU profile into `<dir>` (`NODE_OPTIONS` may not carry `--cpu-prof`).
 */
function profileArgs(): string[] {
  const dir = process.env.BENCH_MEMBER_PROF;
  return dir === undefined || dir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/**
 * Runs `alg` as n OS processes over mutual TLS: per running member, its timed rounds, and
 * (contended) the members' CPU time per timed round — each member measures its own over its
 * timed rounds (`process.cpuUsage`).
 * @throws TransportError when the run fails (a member's error output attached).
 */
export async function runOsCluster(
  alg: BenchAlgorithm,
  n: number,
  mode: Mode,
  counts: RoundCounts,
  certs: Certificates,
): Promise<ClientsRun> {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-bench-os-'));
  try {
    const out = join(dir, 'out');
    mkdirSync(out);
    const settings = { mode, driver: alg.driver, warmup: counts.warmup, out };
    const loaded = await writeCluster(alg, n, certs, { rounds: counts.rounds, settings }, dir);
    const stderr: string[] = [];
    const run = launchCluster({
      configPath: loaded.path,
      entry: MEMBER_ENTRY,
      execArgv: ['--conditions=@critsec/source', '--import', 'tsx', ...profileArgs()],
      timeoutMs: 300_000,
      onOutput: (id, stream, line) => {
        if (stream === 'stderr' && stderr.length < 20) stderr.push(`P${id}: ${line}`);
      },
    });
    const result = await run.done;
    if (!result.ok)
      throw new TransportError(`${alg.label}, ${n} OS processes: ${result.reason}\n${stderr.join('\n')}`);
    const members = Array.from(
      { length: n },
      (_, id) => JSON.parse(readFileSync(join(out, `m${id}.json`), 'utf8')) as MemberRounds,
    ).filter((m) => m.rounds.length > 0);
    const rounds = members.reduce((sum, m) => sum + m.rounds.length, 0);
    const cpuMs = members.reduce((sum, m) => sum + m.cpuMs, 0);
    return {
      timed: members.map((m) => m.rounds),
      // uncontended, only the driver measures (the arbiters it uses run no rounds)
      cpuMsPerRound: mode === 'contended' ? cpuMs / rounds : undefined,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `alg` with its n processes in this process (n `tcpTransport`s over mutual TLS on
 * loopback, the same configuration as the OS-process run): uncontended, then contended, on one
 * cluster. Returns per mode the timed rounds of each running process, and the CPU time of this
 * process per contended round.
 * @throws TransportError when the processes do not connect within 30 s.
 */
export async function runInProcessCluster(
  alg: BenchAlgorithm,
  n: number,
  counts: Record<Mode, RoundCounts>,
  certs: Certificates,
): Promise<SystemSample> {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-bench-in-'));
  const transports: TcpTransport[] = [];
  const objects: { close(): Promise<void> }[] = [];
  try {
    const loaded = await writeCluster(alg, n, certs, { rounds: 1 }, dir);
    const factory = benchAlgorithm.createFactory(alg.params, { n, initial: alg.initial });
    const rounds: Round[] = [];
    for (let id = 0; id < n; id++) {
      const transport = tcpTransport({ ...transportOptionsFor(loaded, id), logger: null });
      transports.push(transport);
      const cs = factory({ id, n, endpoint: transport.endpoint.channel('cs'), initial: alg.initial });
      objects.push(cs);
      rounds.push(csRound(cs));
    }
    await Promise.all(transports.map((t) => t.start()));
    await Promise.all(transports.map((t) => t.ready({ timeoutMs: 30_000 })));
    const uncontended = await runClients([rounds[alg.driver]!], counts.uncontended);
    const contended = await runClients(rounds, counts.contended, cpuClock());
    return {
      uncontended: uncontended.timed,
      contended: contended.timed,
      contendedCpuMs: contended.cpuMsPerRound,
    };
  } finally {
    for (const o of objects) await o.close();
    // together: each transport's close() lingers until every peer has left (the graceful leave)
    await Promise.all(transports.map((t) => t.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}
