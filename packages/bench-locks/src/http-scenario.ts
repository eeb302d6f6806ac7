/**
 * The HTTP scenario of `npm run bench:locks` (issue 30): critsec's lock service — n `critsec node
 * --serve` members over mutual TLS, Maekawa per name over the majority coterie with fencing
 * tokens — driven by C clients through its HTTP API (a session each, then acquire + release per
 * round; client g at member g mod n), on one name and on `names` names, beside the single-Redis
 * lock and etcd's lock from the same number of clients on one key and on as many keys, in one
 * run. The clients sweep the names exactly as in the "1,000 names" scenario (`names-workload.ts`),
 * so every system sees the same names in the same order; the Redis and etcd rows are that
 * scenario's (`names-systems.ts`), with C clients.
 */
import { cpuClock } from './cpu.js';
import type { Certificates } from './critsec-clusters.js';
import { HTTP_PARAMS, startHttpCluster } from './http-cluster.js';
import { httpKeyedLockClient } from './http-lock.js';
import {
  etcdNamesRows,
  type NamesRow,
  type NamesSizes,
  type ReferenceServer,
  redisNamesRows,
} from './names-systems.js';
import { namesTable } from './names-table.js';
import { distinctNames, type NamesPhase, runNamedClients } from './names-workload.js';
import type { KeyedLockClient } from './redis-lock.js';
import { summarize, type TimedRound, windowThroughput } from './stats.js';

/** The sizes of the scenario. */
export interface HttpSizes {
  /** Members of the critsec cluster. */
  readonly n: number;
  /** C, the clients of every system. */
  readonly clients: number;
  /** Names (keys) of the many-names phase. */
  readonly names: number;
  /** Timed rounds per client on `names` names (etcd: a tenth). */
  readonly rounds: number;
  /** Timed rounds per client on one name (etcd: a tenth). */
  readonly oneRounds: number;
  /** Untimed rounds per client first, on names of their own (Redis: a tenth; etcd: a hundredth). */
  readonly warmup: number;
  /** How long to wait for every member's `/readyz`, ms (default 180 000). */
  readonly readyTimeoutMs?: number;
  /** The critsec members in this process instead of one OS process each (the test's; default false). */
  readonly inProcess?: boolean;
}

/**
 * The default sizes: 5 members, 20 clients, 1,000 names, 250 timed rounds per client on the names
 * (5,000 acquisitions; etcd 500) and 100 on one name (2,000; etcd 200), after 200 warm-up rounds
 * per client (4,000: 800 per member, a fresh member process's code compiled by V8 meanwhile).
 */
export const HTTP_SIZES: HttpSizes = {
  n: 5,
  clients: 20,
  names: 1_000,
  rounds: 250,
  oneRounds: 100,
  warmup: 200,
};

/** What the scenario runs against. */
export interface HttpScenarioOptions {
  readonly sizes: HttpSizes;
  /** Certificates of processes 0 … n − 1 (`makeCertificates`). */
  readonly certs: Certificates;
  /** The Redis server (no persistence); its rows are left out without it. */
  readonly redis?: ReferenceServer | undefined;
  /** The etcd member; its rows are left out without it. */
  readonly etcd?: ReferenceServer | undefined;
  /** Where progress lines go (default `console.log`). */
  readonly log?: (line: string) => void;
}

/** The scenario's rows and its printed table and ratios. */
export interface HttpScenarioResult {
  readonly rows: readonly NamesRow[];
  readonly text: string;
}

const SEED = 30;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The phases of `s`: warm-up on names of their own, one name, `s.names` names. */
function phases(s: HttpSizes): Record<'warmup' | 'one' | 'many', NamesPhase> {
  const clients = s.clients;
  return {
    warmup: { prefix: 'warm-', names: s.names, rounds: s.warmup, seed: SEED + 1_000, clients },
    one: { prefix: 'one-', names: 1, rounds: s.oneRounds, seed: SEED, clients },
    many: { prefix: 'name-', names: s.names, rounds: s.rounds, seed: SEED, clients },
  };
}

/** The label of the critsec rows. */
function httpLabel(s: HttpSizes): string {
  const where = s.inProcess === true ? 'one process' : `${s.n} OS processes`;
  return `critsec HTTP API (critsec node --serve, Maekawa, ${HTTP_PARAMS.coterie}, fencing), ${where}, mTLS`;
}

/**
 * The critsec rows: the members started, C clients (client g at member g mod n, one session and
 * one connection each), warm-up, one name, `s.names` names; CPU of the members and of this
 * process (the clients) over each timed phase.
 */
async function critsecHttpRows(s: HttpSizes, certs: Certificates): Promise<NamesRow[]> {
  const p = phases(s);
  const cluster = await startHttpCluster(s.n, certs, {
    ...(s.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: s.readyTimeoutMs }),
    inProcess: s.inProcess === true,
  });
  const clients: KeyedLockClient[] = [];
  try {
    for (let g = 0; g < s.clients; g++) clients.push(await httpKeyedLockClient(cluster.ports[g % s.n]!));
    const run = (phase: NamesPhase) =>
      Promise.all(clients.map((c, g) => runNamedClients(phase, g, 1, c.lock))).then((t) => t.flat());
    await run(p.warmup);
    const clock = cpuClock(s.inProcess === true ? [] : cluster.pids);
    const timed = async (phase: NamesPhase): Promise<{ timed: TimedRound[][]; cpuMsPerRound: number }> => {
      const before = await clock();
      const t = await run(phase);
      return { timed: t, cpuMsPerRound: ((await clock()) - before) / sum(t.map((x) => x.length)) };
    };
    const label = httpLabel(s);
    const one = await timed(p.one);
    const many = await timed(p.many);
    return [
      { label: `${label}, 1 name`, names: 1, ...one },
      { label: `${label}, ${s.names.toLocaleString('en-US')} names`, names: distinctNames(p.many), ...many },
    ];
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    await cluster.close();
  }
}

/** The reference rows' sizes: C clients (as one member of C), the same rounds. */
const referenceSizes = (s: HttpSizes): NamesSizes => ({
  n: 1,
  clientsPerMember: s.clients,
  names: s.names,
  rounds: s.rounds,
  oneRounds: s.oneRounds,
  warmup: s.warmup,
});

const times = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');

/** The ratios of the critsec HTTP rows to Redis's and etcd's, on one name and on many, in acquisitions/s and p50. */
function httpRatios(rows: readonly NamesRow[]): string {
  const lines = ['| a / b | acquisitions/s a / b | p50 a / b |', '| --- | ---: | ---: |'];
  for (const many of [false, true]) {
    const find = (prefix: string) => rows.find((r) => r.label.startsWith(prefix) && r.names > 1 === many);
    const a = find('critsec HTTP');
    for (const b of [find('Redis'), find('etcd')]) {
      if (a === undefined || b === undefined) continue;
      const rate = windowThroughput(a.timed).perSecond / windowThroughput(b.timed).perSecond;
      const p50 = summarize(a.timed.flat()).p50 / summarize(b.timed.flat()).p50;
      lines.push(`| ${a.label} / ${b.label} | ${times(rate)} | ${times(p50)} |`);
    }
  }
  return lines.join('\n');
}

/**
 * Runs the scenario: the critsec members through HTTP, then Redis, then etcd (each system's
 * one-name phase right before its many-names phase).
 * @throws TransportError when a member fails or is not ready; the service's error when a call is
 *   refused; what the Redis or etcd clients throw.
 */
export async function runHttpScenario(o: HttpScenarioOptions): Promise<HttpScenarioResult> {
  const log = o.log ?? console.log;
  const s = o.sizes;
  const rows: NamesRow[] = [];
  const step = async (what: string, run: () => Promise<NamesRow[]>) => {
    const t0 = performance.now();
    rows.push(...(await run()));
    log(`http scenario: ${what} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  };
  await step('critsec over HTTP', () => critsecHttpRows(s, o.certs));
  if (o.redis) await step('Redis', () => redisNamesRows(referenceSizes(s), o.redis!));
  if (o.etcd) await step('etcd', () => etcdNamesRows(referenceSizes(s), o.etcd!));
  const title =
    `critsec's lock service through its HTTP API, n = ${s.n}, ${s.clients} clients (one session and one ` +
    `keep-alive connection each, client g at member g mod ${s.n}), on 1 name and on ${s.names.toLocaleString('en-US')} ` +
    '(in sweeps, each in its own seeded random order; no hold or think time), beside Redis and etcd from as many clients';
  return { rows, text: `${title}\n\n${namesTable(rows, s.clients)}\n\n${httpRatios(rows)}` };
}
