/**
 * Loopback benchmark of @critsec/transport-tcp (issue #6):
 *  1. between two OS processes over mutual TLS 1.3 (and, for comparison, plain TCP):
 *     round-trip latency (p50/p99), one-way latency (p50/p99; both processes read the same
 *     system clock), and messages/s of a one-way stream;
 *  2. CS entries per second at n = 5 over TCP/TLS in one process, with the coordinator-mutex
 *     test fixture (Maekawa over TLS is measured by packages/integration-tests' benchmark).
 *
 * Run: npm run bench   (node --conditions=@critsec/source --import tsx bench/tcp.bench.ts)
 * Options: --quick (fewer samples).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CSObject, Message } from '@critsec/core';
import { createFactory as coordinatorMutex } from '../test/fixtures/coordinator-mutex.js';
import { type TcpTransport, tcpTransport, type TcpTransportOptions } from '../src/index.js';
import { createDevCertificates, freeLoopbackPorts } from '../src/setup.js';

const quick = process.argv.includes('--quick');
const now = () => performance.timeOrigin + performance.now(); // wall clock, sub-ms

interface Setup {
  peers: { id: number; host: string; port: number }[];
  ca: string;
  creds: { cert: string; key: string }[];
  insecure: boolean;
}

function transportFor(setup: Setup, self: number): TcpTransport {
  const base: TcpTransportOptions = { self, peers: setup.peers, logger: null };
  return tcpTransport(
    setup.insecure
      ? { ...base, insecure: true }
      : { ...base, tls: { ca: setup.ca, cert: setup.creds[self]!.cert, key: setup.creds[self]!.key } },
  );
}

function pct(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3));

/** The echo side, in the child process: answers PING with PONG(sent, received) and counts STREAM. */
async function child(setupPath: string): Promise<void> {
  const setup = JSON.parse(readFileSync(setupPath, 'utf8')) as Setup;
  const t = transportFor(setup, 1);
  let streamed = 0;
  let streamTarget = Number.POSITIVE_INFINITY;
  t.endpoint.onMessage((from, msg) => {
    if (msg.type === 'PING') t.endpoint.send(from, { type: 'PONG', k: msg.k, sent: msg.sent, recv: now() });
    else if (msg.type === 'STREAM') {
      streamed++;
      if (streamed === streamTarget) t.endpoint.send(from, { type: 'STREAM_DONE', count: streamed });
    } else if (msg.type === 'EXPECT') {
      streamTarget = msg.count as number;
      streamed = 0;
      t.endpoint.send(from, { type: 'READY' });
    } else if (msg.type === 'QUIT') {
      // its part is over and P0 waits for this process to exit before it closes: leave at once
      void t.flush().finally(() => t.close({ lingerMs: 0 }).then(() => process.exit(0)));
    }
  });
  await t.start();
  process.send?.('started');
}

async function twoProcesses(insecure: boolean): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-bench-'));
  const ports = await freeLoopbackPorts(2);
  const certs = await createDevCertificates(2);
  const setup: Setup = {
    peers: ports.map((port, id) => ({ id, host: '127.0.0.1', port })),
    ca: certs.ca,
    creds: certs.processes.map((p) => ({ cert: p.cert, key: p.key })),
    insecure,
  };
  const setupPath = join(dir, 'setup.json');
  writeFileSync(setupPath, JSON.stringify(setup));
  const proc = fork(fileURLToPath(import.meta.url), ['--child', setupPath], {
    execArgv: ['--conditions=@critsec/source', '--import', 'tsx'],
  });
  await new Promise<void>((r) => proc.once('message', () => r()));
  const t = transportFor(setup, 0);
  const waiters = new Map<string, (m: Message) => void>();
  const pongs: Message[] = [];
  t.endpoint.onMessage((_from, msg) => {
    if (msg.type === 'PONG') pongs.push(msg);
    waiters.get(msg.type)?.(msg);
  });
  const next = (type: string) => new Promise<Message>((r) => waiters.set(type, r));
  await t.start();
  await t.ready();

  // Round trip and one way: sequential ping-pong.
  const samples = quick ? 2_000 : 10_000;
  const warm = 500;
  const rtt: number[] = [];
  const oneWay: number[] = [];
  for (let k = 0; k < samples + warm; k++) {
    const p = next('PONG');
    const sent = now();
    t.endpoint.send(1, { type: 'PING', k, sent });
    const pong = await p;
    const back = now();
    if (k >= warm) {
      rtt.push(back - sent);
      oneWay.push((pong.recv as number) - sent);
    }
  }

  // Throughput: a one-way stream of small messages, keeping ≤ 5 000 unacknowledged.
  const count = quick ? 100_000 : 300_000;
  const ready = next('READY');
  t.endpoint.send(1, { type: 'EXPECT', count });
  await ready;
  const done = next('STREAM_DONE');
  const t0 = performance.now();
  for (let k = 0; k < count; ) {
    while (k < count && t.peerStats(1).unacked < 5_000) t.endpoint.send(1, { type: 'STREAM', k: k++ });
    await new Promise((r) => setImmediate(r));
  }
  await done;
  const seconds = (performance.now() - t0) / 1000;

  t.endpoint.send(1, { type: 'QUIT' });
  await t.flush();
  await new Promise<void>((r) => proc.once('exit', () => r()));
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    'rtt p50 ms': pct(rtt, 0.5),
    'rtt p99 ms': pct(rtt, 0.99),
    'one-way p50 ms': pct(oneWay, 0.5),
    'one-way p99 ms': pct(oneWay, 0.99),
    'messages/s': count / seconds,
  };
}

async function csEntriesPerSecond(n: number, seconds: number): Promise<Record<string, number>> {
  const ports = await freeLoopbackPorts(n);
  const certs = await createDevCertificates(n);
  const setup: Setup = {
    peers: ports.map((port, id) => ({ id, host: '127.0.0.1', port })),
    ca: certs.ca,
    creds: certs.processes.map((p) => ({ cert: p.cert, key: p.key })),
    insecure: false,
  };
  const transports = setup.peers.map((p) => transportFor(setup, p.id));
  const factory = coordinatorMutex({ coordinator: 0 });
  const initial = Array.from({ length: n }, () => 'OutCS' as const);
  const objects: CSObject[] = transports.map((t) =>
    factory({ id: t.self, n, endpoint: t.endpoint.channel('cs'), initial }),
  );
  await Promise.all(transports.map((t) => t.start()));
  await Promise.all(transports.map((t) => t.ready()));
  const perProcess = new Array<number>(n).fill(0);
  let maxInCS = 0;
  const stopAt = performance.now() + seconds * 1000;
  await Promise.all(
    objects.map(async (cs, i) => {
      while (performance.now() < stopAt) {
        await cs.entry();
        maxInCS = Math.max(maxInCS, objects.filter((o) => o.state === 'InCS').length);
        perProcess[i]!++;
        await cs.exit();
      }
    }),
  );
  const entries = perProcess.reduce((a, b) => a + b, 0);
  if (maxInCS > 1) throw new Error(`mutual exclusion violated in the benchmark (max ${maxInCS} InCS)`);
  await Promise.all(objects.map((o) => o.close()));
  await Promise.all(transports.map((t) => t.close()));
  return {
    'entries/s': entries / seconds,
    entries,
    min: Math.min(...perProcess),
    max: Math.max(...perProcess),
  };
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    await child(process.argv[childAt + 1]!);
    return;
  }
  console.log(
    `@critsec/transport-tcp loopback benchmark (${quick ? 'quick' : 'full'}), Node ${process.version}`,
  );
  const tls = await twoProcesses(false);
  const plain = await twoProcesses(true);
  console.log('\nTwo OS processes, small messages ({type, k, …}):');
  console.table(
    Object.fromEntries(
      Object.keys(tls).map((key) => [
        key,
        { 'mutual TLS 1.3': fmt(tls[key]!), 'plain TCP (insecure)': fmt(plain[key]!) },
      ]),
    ),
  );
  const cs = await csEntriesPerSecond(5, quick ? 2 : 5);
  console.log(
    '\nCS entries per second, n = 5, one process, TLS (coordinator-mutex fixture; Maekawa: see packages/integration-tests bench):',
  );
  console.table({
    'coordinator mutex': {
      'entries/s': fmt(cs['entries/s']!),
      entries: cs.entries,
      'fewest by one process': cs.min,
      'most by one process': cs.max,
    },
  });
}

await main();
