/**
 * The rows of the table as runnable systems: each `run()` is one repetition (uncontended, then
 * with n contending clients) and returns the timed rounds. Round counts are per client; `scale`
 * (e.g. 0.2 for `--quick`) shrinks them all.
 */
import { gcsGrid, maekawaGrid } from './algorithm.js';
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

const counts = (scale: number, unc: number, cont: number): Counts => {
  const c = (x: number) => Math.max(5, Math.round(x * scale));
  return {
    uncontended: { warmup: c(unc / 10), rounds: c(unc) },
    contended: { warmup: c(cont / 10), rounds: c(cont) },
  };
};

/** n clients made by `make`: the first alone, then all together; every client closed at the end. */
async function runLockClients(
  n: number,
  make: (i: number) => Promise<LockClient>,
  c: Counts,
): Promise<SystemSample> {
  const clients: LockClient[] = [];
  try {
    for (let i = 0; i < n; i++) clients.push(await make(i));
    const uncontended = await runClients([clients[0]!.round], c.uncontended);
    const contended = await runClients(
      clients.map((x) => x.round),
      c.contended,
    );
    return { uncontended, contended };
  } finally {
    for (const x of clients) await x.close();
  }
}

/** The critsec rows: Maekawa as n OS processes and in one process, GCS as n OS processes. */
export function critsecSystems(n: number, certs: Certificates, scale: number): BenchSystem[] {
  const maekawa = maekawaGrid(n);
  const gcs = gcsGrid(n);
  const os = (alg: typeof maekawa, c: Counts) => async (): Promise<SystemSample> => ({
    uncontended: await runOsCluster(alg, n, 'uncontended', c.uncontended, certs),
    contended: await runOsCluster(alg, n, 'contended', c.contended, certs),
  });
  return [
    { label: `${maekawa.label}, ${n} OS processes, mTLS`, run: os(maekawa, counts(scale, 3000, 600)) },
    {
      label: `${maekawa.label}, one process, mTLS`,
      run: () => runInProcessCluster(maekawa, n, counts(scale, 3000, 1000), certs),
    },
    { label: `${gcs.label}, ${n} OS processes, mTLS`, run: os(gcs, counts(scale, 800, 200)) },
  ];
}

/** The etcd lock row, against the member on `port`. */
export function etcdSystem(n: number, port: number, version: string, scale: number): BenchSystem {
  return {
    label: `etcd ${version} lock (etcd3 client, lease + txn), 1 member`,
    run: () =>
      runLockClients(n, async () => etcdLockClient(port, 'critsec-bench-lock'), counts(scale, 300, 80)),
  };
}

/** The single-Redis lock row, against the server on `port`. */
export function redisSystem(n: number, port: number, version: string, scale: number): BenchSystem {
  return {
    label: `Redis ${version} lock (SET NX PX + Lua release)`,
    run: () =>
      runLockClients(
        n,
        (i) => redisLockClient(port, 'critsec-bench-lock', `c${i}`),
        counts(scale, 3000, 1000),
      ),
  };
}

/** The raw round-trip row, against the echo server on `port` (mutual TLS with the certificates in `tlsDir` when given). */
export function echoSystem(n: number, port: number, scale: number, tlsDir?: string): BenchSystem {
  return {
    label: `raw ${tlsDir === undefined ? 'TCP' : 'mTLS 1.3'} round trip (32 B, other process)`,
    run: () => runLockClients(n, () => echoClient(port, tlsDir), counts(scale, 5000, 2000)),
  };
}
