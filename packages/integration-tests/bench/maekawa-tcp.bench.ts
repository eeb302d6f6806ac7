/**
 * Maekawa (grid coterie) CS entries per second at n = 5 over mutual TLS 1.3 on loopback
 * (issue #6's benchmark, now with a real algorithm instead of transport-tcp's coordinator
 * stand-in):
 *  1. in one Node process — five `tcpTransport`s, the harness of this package's tests, the
 *     safety monitor on every state change;
 *  2. as five OS processes — the launcher of @critsec/cluster, this package's algorithm
 *     module, the launcher's default rounds workload; every call also appends two shared-log
 *     records and sends a progress message to the launcher, as in the tests.
 * Closed loop: no think or hold time, every process re-enters as soon as it has exited, so the
 * figure is the CS's throughput under full contention (each entry costs Maekawa's messages
 * and their round trips). Ricart–Agrawala in one process is measured beside it for scale.
 *
 * Run: npm run bench   (node --conditions=@critsec/source --import tsx bench/maekawa-tcp.bench.ts)
 * Options: --quick (fewer rounds, one repetition). A warm-up run of each in-process case comes first.
 */
import { readSharedLog } from '@critsec/cluster';
import { type AlgorithmCase, maekawaCase, ricartAgrawalaCase } from '../test/helpers/algorithms.js';
import { startOsCluster } from '../test/helpers/os-cluster.js';
import { runRealtimeWorkload } from '../test/helpers/realtime-workload.js';
import { createTcpCluster } from '../test/helpers/tcp-cluster.js';

const quick = process.argv.includes('--quick');
const N = 5;
const repetitions = quick ? 1 : 3;
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Sample {
  entriesPerSecond: number;
  entries: number;
  seconds: number;
  messagesPerEntry: number;
  violations: number;
}

async function inProcess(c: AlgorithmCase, rounds: number): Promise<Sample> {
  const cluster = await createTcpCluster({ factory: c.factory, spec: c.spec, initial: c.initial });
  try {
    const before = messagesBetween(cluster.transports);
    const r = await runRealtimeWorkload(cluster, { rounds, thinkMs: 0, holdMs: 0 });
    if (!r.ok) throw new Error(`${c.name}: run failed: ${r.failure ?? `${r.violations.length} violations`}`);
    const entries = r.entries.reduce((a, b) => a + b, 0);
    const seconds = r.durationMs / 1000;
    return {
      entriesPerSecond: entries / seconds,
      entries,
      seconds,
      messagesPerEntry: (messagesBetween(cluster.transports) - before) / entries,
      violations: r.violations.length,
    };
  } finally {
    await cluster.close();
  }
}

function messagesBetween(
  transports: readonly {
    self: number;
    endpoint: { peers: readonly number[] };
    peerStats(p: number): { session: { sent: number } };
  }[],
): number {
  let sent = 0;
  for (const t of transports)
    for (const p of t.endpoint.peers) if (p !== t.self) sent += t.peerStats(p).session.sent;
  return sent;
}

async function osProcesses(rounds: number): Promise<Sample & { startupSeconds: number }> {
  const cluster = await startOsCluster({
    n: N,
    params: { algorithm: 'mutex', coterie: 'grid' },
    bounds: { l: 0, k: 1 },
    initial: new Array(N).fill('OutCS'),
    rounds,
    thinkMs: 0,
    holdMs: 0,
    workloadModule: null,
    timeoutMs: 300_000,
  });
  try {
    const t0 = Date.now();
    const result = await cluster.run.done;
    if (!result.ok) throw new Error(`OS cluster failed: ${result.reason}\n${cluster.stderr.join('\n')}`);
    const { records } = readSharedLog(cluster.config.resolve(cluster.config.config.log));
    const first = records.find((r) => r.e === 'entry-called')!.t;
    const last = records.filter((r) => r.e === 'exit-done').at(-1)!.t;
    const entries = records.filter((r) => r.e === 'entry-done').length;
    const seconds = (last - first) / 1000;
    // Messages between members: the CS traffic plus the few DONE/BYE barrier messages.
    const sent = result.reports.reduce((s, r) => s + (r?.messages.sent ?? 0), 0);
    return {
      entriesPerSecond: entries / seconds,
      entries,
      seconds,
      messagesPerEntry: sent / entries,
      violations: result.check.violationCount,
      startupSeconds: (first - t0) / 1000,
    };
  } finally {
    await cluster.close();
  }
}

async function main(): Promise<void> {
  console.log(
    `@critsec/integration-tests: Maekawa over mutual TLS on loopback, n = ${N} (${quick ? 'quick' : `median of ${repetitions}`}), Node ${process.version}`,
  );
  const rounds = quick ? 200 : 1_000;
  const rows: Record<string, Record<string, string | number>> = {};
  const row = (name: string, samples: Sample[], extra: Record<string, string | number> = {}) => {
    const pick = samples.find((s) => s.entriesPerSecond === median(samples.map((x) => x.entriesPerSecond)))!;
    rows[name] = {
      'entries/s': fmt(pick.entriesPerSecond),
      entries: pick.entries,
      seconds: fmt(pick.seconds),
      'messages/entry': fmt(pick.messagesPerEntry),
      violations: samples.reduce((s, x) => s + x.violations, 0),
      runs: samples.map((s) => fmt(s.entriesPerSecond)).join(' / '),
      ...extra,
    };
  };
  // Warm-up (JIT, TLS session setup code paths): not measured.
  await inProcess(maekawaCase(N), 200);
  await inProcess(ricartAgrawalaCase(N), 200);
  const maekawa: Sample[] = [];
  const ra: Sample[] = [];
  for (let i = 0; i < repetitions; i++) {
    maekawa.push(await inProcess(maekawaCase(N), rounds));
    ra.push(await inProcess(ricartAgrawalaCase(N), rounds));
  }
  row('Maekawa grid, one process', maekawa);
  const os: (Sample & { startupSeconds: number })[] = [];
  for (let i = 0; i < repetitions; i++) os.push(await osProcesses(quick ? 200 : 600));
  row(`Maekawa grid, ${N} OS processes`, os, {
    'startup s': fmt(median(os.map((s) => s.startupSeconds))),
  });
  row('Ricart–Agrawala, one process (for scale)', ra);
  console.log('\nCS entries per second under full contention (no think, no hold), TLS 1.3, loopback:');
  console.table(rows);
}

await main();
