/**
 * What the wire does per critical-section round (issue 15's "leaner wire"): Maekawa over the
 * grid coterie at n = 5, its five `tcpTransport`s over mutual TLS in this process (the
 * in-process row of `bench:locks`), uncontended rounds by P0 then 5-contending rounds. Counts,
 * summed over the five processes and divided by the rounds: session data frames, standalone ack
 * frames, frames written, socket writes (calls that reach the socket's write path after
 * corking: one TLS record and one `write` system call each), socket reads ('data' events),
 * `JSON.stringify` / `JSON.parse` calls; then the round latency p50 (ms) and throughput.
 *
 * Run: node --conditions=@critsec/source --import tsx bench/wire-profile.ts [--rounds 3000]
 * (from packages/bench-locks). Wall-clock figures depend on the machine's load; the counts do
 * not (much: a read can carry more or fewer frames).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalCluster, transportOptionsFor } from '@critsec/cluster';
import { type TcpTransport, tcpTransport } from '@critsec/transport-tcp';
import { BENCH_ALGORITHM, benchAlgorithm, maekawaGrid } from '../src/algorithm.js';
import { type Round, runClients } from '../src/drive.js';
import { csRound } from '../src/member-workload.js';
import { summarize, windowThroughput } from '../src/stats.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 3000);
const N = 5;

const counts = { writes: 0, reads: 0, stringify: 0, parse: 0 };
const socketProto = net.Socket.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
const writeGeneric = socketProto._writeGeneric!;
socketProto._writeGeneric = function (this: unknown, ...a: unknown[]) {
  counts.writes++;
  return writeGeneric.apply(this, a);
};
const emit = socketProto.emit!;
socketProto.emit = function (this: unknown, ...a: unknown[]) {
  if (a[0] === 'data') counts.reads++;
  return emit.apply(this, a);
};
const { stringify, parse } = JSON;
JSON.stringify = ((...a: Parameters<typeof stringify>) => {
  counts.stringify++;
  return stringify(...a);
}) as typeof stringify;
JSON.parse = ((...a: Parameters<typeof parse>) => {
  counts.parse++;
  return parse(...a);
}) as typeof parse;

function snapshot(transports: TcpTransport[]) {
  let data = 0;
  let acks = 0;
  let framesOut = 0;
  let bytesOut = 0;
  for (const t of transports) {
    framesOut += t.stats.framesOut;
    bytesOut += t.stats.bytesOut;
    for (const p of t.endpoint.peers) {
      if (p === t.self) continue;
      const s = t.peerStats(p).session;
      data += s.sent + s.retransmitted;
      acks += s.acksSent;
    }
  }
  return { data, acks, framesOut, bytesOut, ...counts };
}

function perRound(a: ReturnType<typeof snapshot>, b: ReturnType<typeof snapshot>, rounds: number) {
  const out: Record<string, string> = {};
  for (const k of Object.keys(a) as (keyof typeof a)[]) out[k] = ((b[k] - a[k]) / rounds).toFixed(2);
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'critsec-wire-profile-'));
const transports: TcpTransport[] = [];
const objects: { close(): Promise<void> }[] = [];
try {
  const alg = maekawaGrid(N);
  const loaded = await createLocalCluster({
    dir,
    n: N,
    algorithm: BENCH_ALGORITHM,
    params: alg.params,
    initial: alg.initial,
    bounds: alg.bounds,
    workload: { rounds: 1 },
  });
  const factory = benchAlgorithm.createFactory(alg.params, { n: N, initial: alg.initial });
  const rounds: Round[] = [];
  for (let id = 0; id < N; id++) {
    const t = tcpTransport({ ...transportOptionsFor(loaded, id), logger: null });
    transports.push(t);
    const cs = factory({ id, n: N, endpoint: t.endpoint.channel('cs'), initial: alg.initial });
    objects.push(cs);
    rounds.push(csRound(cs));
  }
  await Promise.all(transports.map((t) => t.start()));
  await Promise.all(transports.map((t) => t.ready({ timeoutMs: 30_000 })));
  const warmup = Math.ceil(ROUNDS / 10);
  for (const [mode, clients] of [
    ['uncontended (P0 alone)', [rounds[0]!]],
    ['5-contending', rounds],
  ] as const) {
    await runClients(clients, { warmup, rounds: 0 });
    await Promise.all(transports.map((t) => t.flush()));
    const before = snapshot(transports);
    const { timed } = await runClients(clients, { warmup: 0, rounds: ROUNDS });
    await Promise.all(transports.map((t) => t.flush()));
    const after = snapshot(transports);
    const total = ROUNDS * clients.length;
    const lat = summarize(timed.flat());
    const thr = windowThroughput(timed);
    console.log(`${mode}: ${total} rounds, per round (summed over the ${N} processes):`);
    console.log(perRound(before, after, total));
    console.log(
      `  p50 ${lat.p50.toFixed(3)} ms, p99 ${lat.p99.toFixed(3)} ms, ${thr.perSecond.toFixed(0)} rounds/s`,
    );
  }
} finally {
  for (const o of objects) await o.close();
  await Promise.all(transports.map((t) => t.close())); // together: each close() lingers until every peer has left
  rmSync(dir, { recursive: true, force: true });
}
