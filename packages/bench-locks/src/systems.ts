/**
 * The rows of the table as runnable systems: each `run()` is one repetition (uncontended, then
 * with n contending clients) and returns the timed rounds. Round counts are per client; `scale`
 * (e.g. 0.2 for `--quick`) shrinks them all.
 */
import { gcsGrid, maekawaGrid, maekawaGridDurable, maekawaGridFenced } from './algorithm.js';
import { cpuClock } from './cpu.js';
import { type Certificates, runInProcessCluster, runOsCluster } from './critsec-clusters.js';
import { type RoundCounts, runClients } from './drive.js';
import { etcdLockClient } from './etcd-lock.js';
import { type LockClient, redisLockClient } from './redis-lock.js';
import type { SystemSample } from './table.js';
import { echoClient } from './tcp-echo.js';

/** One row: its label and one repetition of its measurement. */
export interface BenchSystem {
  readonly label: string;
  run(): Promise<SystemSample>;
}

/** Round counts of one system: uncontended (one client) and contended (per client). */
interface Counts {
  readonly uncontended: RoundCounts;
  readonly contended: RoundCounts;
}

/**
 * `unc` uncontended and `cont` contended timed rounds per client, scaled by `scale`, each after
 * `warmup` untimed ones (not scaled: compiling the code takes the same rounds in a quick run) or,
 * by default, a tenth of the timed ones.
 */
const counts = (scale: number, unc: number, cont: number, warmup?: number): Counts => {
  const c = (x: number) => Math.max(5, Math.round(x * scale));
  return {
    uncontended: { warmup: warmup ?? c(unc / 10), rounds: c(unc) },
    contended: { warmup: warmup ?? c(cont / 10), rounds: c(cont) },
  };
};

/**
 * Untimed rounds per client before the timed ones of the critsec rows. Each OS-process cluster
 * is fresh (new processes, so V8 compiles the member's code anew): measured at n = 5, a member
 * that has run only 60 rounds spends about three times the CPU per contended entry of one that
 * has run 3,000 (README, "Warm-up"). The in-process row gets the same, for a like comparison.
 */
const CRITSEC_WARMUP = { maekawa: 2000, gcs: 600 } as const;

/**
 * n clients made by `make`: the first alone, then all together; every client closed at the end.
 * The contended CPU time is this process's (the clients') and that of the server `serverPid`.
 */
async function runLockClients(
  n: number,
  make: (i: number) => Promise<LockClient>,
  c: Counts,
  serverPid: number,
): Promise<SystemSample> {
  const clients: LockClient[] = [];
  try {
    for (let i = 0; i < n; i++) clients.push(await make(i));
    const uncontended = await runClients([clients[0]!.round], c.uncontended);
    const contended = await runClients(
      clients.map((x) => x.round),
      c.contended,
      cpuClock([serverPid]),
    );
    return {
      uncontended: uncontended.timed,
      contended: contended.timed,
      contendedCpuMs: contended.cpuMsPerRound,
    };
  } finally {
    for (const x of clients) await x.close();
  }
}

/** The critsec rows: Maekawa as n OS processes and in one process, Maekawa with durable members (LMDB), with fencing, and with fencing + a ttl on durable members as n OS processes, GCS as n OS processes. */
export function critsecSystems(n: number, certs: Certificates, scale: number): BenchSystem[] {
  const maekawa = maekawaGrid(n);
  const gcs = gcsGrid(n);
  const os = (alg: typeof maekawa, c: Counts) => async (): Promise<SystemSample> => {
    const uncontended = await runOsCluster(alg, n, 'uncontended', c.uncontended, certs);
    const contended = await runOsCluster(alg, n, 'contended', c.contended, certs);
    return {
      uncontended: uncontended.timed,
      contended: contended.timed,
      contendedCpuMs: contended.cpuMsPerRound,
    };
  };
  const maekawaCounts = counts(scale, 3000, 1000, CRITSEC_WARMUP.maekawa);
  return [
    { label: `${maekawa.label}, ${n} OS processes, mTLS`, run: os(maekawa, maekawaCounts) },
    {
      label: `${maekawa.label}, one process, mTLS`,
      run: () => runInProcessCluster(maekawa, n, maekawaCounts, certs),
    },
    {
      label: `${maekawaGridDurable(n).label}, ${n} OS processes, mTLS, LMDB`,
      run: os(maekawaGridDurable(n), maekawaCounts),
    },
    {
      label: `${maekawaGridFenced(n).label}, ${n} OS processes, mTLS`,
      run: os(maekawaGridFenced(n), maekawaCounts),
    },
    {
      label: `${maekawaGridFenced(n, { ttlMs: 5_000, durable: true }).label}, ${n} OS processes, mTLS, LMDB`,
      run: os(maekawaGridFenced(n, { ttlMs: 5_000, durable: true }), maekawaCounts),
    },
    {
      label: `${gcs.label}, ${n} OS processes, mTLS`,
      run: os(gcs, counts(scale, 800, 200, CRITSEC_WARMUP.gcs)),
    },
  ];
}

/** The etcd lock row, against the member `server` (its client port and process id). */
export function etcdSystem(
  n: number,
  server: { readonly port: number; readonly pid: number },
  version: string,
  scale: number,
): BenchSystem {
  const { port, pid } = server;
  return {
    label: `etcd ${version} lock (etcd3 client, lease + txn), 1 member`,
    run: () =>
      runLockClients(n, async () => etcdLockClient(port, 'critsec-bench-lock'), counts(scale, 300, 80), pid),
  };
}

/**
 * The single-Redis lock row, against `server` (its port and process id); `persistence` names the
 * server's persistence in the label (none when omitted).
 */
export function redisSystem(
  n: number,
  server: { readonly port: number; readonly pid: number },
  version: string,
  scale: number,
  persistence?: string,
): BenchSystem {
  const { port, pid } = server;
  return {
    label: `Redis ${version} lock (SET NX PX + Lua release${persistence ? `; ${persistence}` : ''})`,
    run: () =>
      runLockClients(
        n,
        (i) => redisLockClient(port, 'critsec-bench-lock', `c${i}`),
        counts(scale, 3000, 1000),
        pid,
      ),
  };
}

/**
 * The raw round-trip row, against the echo server `server` (mutual TLS with the certificates in
 * `tlsDir` when given).
 */
export function echoSystem(
  n: number,
  server: { readonly port: number; readonly pid: number },
  scale: number,
  tlsDir?: string,
): BenchSystem {
  return {
    label: `raw ${tlsDir === undefined ? 'TCP' : 'mTLS 1.3'} round trip (32 B, other process)`,
    run: () =>
      runLockClients(n, () => echoClient(server.port, tlsDir), counts(scale, 5000, 2000), server.pid),
  };
}
