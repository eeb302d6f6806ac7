/**
 * The rows of the "1,000 names" scenario (issue 29): `@critsec/locks` on n members as n OS
 * processes over mutual TLS, on one name and on `names` names, beside the single-Redis lock and
 * etcd's lock on one key and on `names` keys — the same clients (n × `clientsPerMember`,
 * sweeping the names in one seeded order, `names-workload.ts`), the same lock recipes as the
 * latency table's rows. Every phase is timed from the first round to the last.
 */
import { readFileSync } from 'node:fs';
import { cpuClock } from './cpu.js';
import type { Certificates } from './critsec-clusters.js';
import { etcdDbSize, etcdKeyedLockClient } from './etcd-lock.js';
import { startNamesCluster } from './names-cluster.js';
import type { MemberMemory, MemberPhase } from './names-member.js';
import { distinctNames, type NamesPhase, runNamedClients } from './names-workload.js';
import { type KeyedLockClient, redisKeyedLockClient, redisUsedMemory } from './redis-lock.js';
import type { TimedRound } from './stats.js';

/** The sizes of the scenario. */
export interface NamesSizes {
  /** Members of the critsec cluster. */
  readonly n: number;
  /** Names (keys) the clients draw from in the many-names phase. */
  readonly names: number;
  /** Clients per member: n × this clients in all, for every system. */
  readonly clientsPerMember: number;
  /** Timed rounds per client on `names` names (etcd: a tenth). */
  readonly rounds: number;
  /** Timed rounds per client on one name (etcd: a tenth). */
  readonly oneRounds: number;
  /** Untimed rounds per client first, on names of their own (the reference systems: a tenth). */
  readonly warmup: number;
  /** How long a critsec member waits for its peers to connect, ms (default 60 000). */
  readonly readyTimeoutMs?: number;
  /** The critsec members in this process instead of one OS process each (the test's; default false). */
  readonly inProcess?: boolean;
}

/** The memory a system keeps per idle name, once the names are no longer in use. */
interface IdleMemory {
  /** Growth per name (and member, for critsec) of the system's own measure, bytes (see `what`). */
  readonly perName: number;
  /** Growth of the resident set size per name (and member), bytes. */
  readonly rssPerName: number;
  /** What `perName` measures. */
  readonly what: string;
}

/** One row: a system on one name or on many. */
export interface NamesRow {
  readonly label: string;
  /** Distinct names (keys) the clients used. */
  readonly names: number;
  /** Per client, its timed rounds. */
  readonly timed: readonly (readonly TimedRound[])[];
  /** CPU time per round, ms, of every process of the system (members; or this process and the server). */
  readonly cpuMsPerRound: number;
  /** Memory per idle name (the many-names rows). */
  readonly memory?: IdleMemory;
}

/** A reference server the scenario drives: its client port, process id and version. */
export interface ReferenceServer {
  readonly port: number;
  readonly pid: number;
  readonly version: string;
}

const SEED = 29;
const phases = (s: NamesSizes, share = 1) => {
  const r = (x: number) => Math.max(1, Math.round(x * share));
  const clients = s.n * s.clientsPerMember;
  return {
    warmup: { prefix: 'warm-', names: s.names, rounds: r(s.warmup), seed: SEED + 1_000, clients },
    one: { prefix: 'one-', names: 1, rounds: r(s.oneRounds), seed: SEED, clients },
    many: { prefix: 'name-', names: s.names, rounds: r(s.rounds), seed: SEED, clients },
  } satisfies Record<string, NamesPhase>;
};

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const roundsOf = (timed: readonly (readonly TimedRound[])[]) => sum(timed.map((t) => t.length));

function critsecRow(label: string, names: number, members: readonly MemberPhase[]): NamesRow {
  const timed = members.flatMap((m) => m.timed);
  return { label, names, timed, cpuMsPerRound: sum(members.map((m) => m.cpuMs)) / roundsOf(timed) };
}

/**
 * `@critsec/locks` as `s.n` OS processes over mutual TLS: warm-up on names of their own, every
 * idle name reclaimed and a full GC (the baseline), one name, `s.names` names, reclaim and GC
 * again; memory per idle name = the members' heap (and RSS) growth / (names used × members).
 */
export async function critsecNamesRows(s: NamesSizes, certs: Certificates): Promise<NamesRow[]> {
  const p = phases(s);
  const where = s.inProcess === true ? 'one process' : `${s.n} OS processes`;
  const label = `@critsec/locks (Maekawa, majority), ${where}, mTLS`;
  const cluster = await startNamesCluster(s.n, certs, {
    ...(s.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: s.readyTimeoutMs }),
    inProcess: s.inProcess === true,
  });
  try {
    await cluster.run(p.warmup, s.clientsPerMember);
    const before = await cluster.memory();
    const one = await cluster.run(p.one, s.clientsPerMember);
    const many = await cluster.run(p.many, s.clientsPerMember);
    const after = await cluster.memory();
    const used = distinctNames(p.many);
    const grown = (f: (m: MemberMemory) => number) => (sum(after.map(f)) - sum(before.map(f))) / (used * s.n);
    const kept = sum(after.map((m) => m.kept)) - sum(before.map((m) => m.kept));
    const live = sum(after.map((m) => m.live));
    return [
      critsecRow(`${label}, 1 name`, 1, one),
      {
        ...critsecRow(`${label}, ${s.names.toLocaleString('en-US')} names`, used, many),
        memory: {
          perName: grown((m) => m.heapUsed),
          rssPerName: grown((m) => m.rss),
          what: `JS heap after a full GC, per name and member (${kept} kept states, ${live} live)`,
        },
      },
    ];
  } finally {
    await cluster.close();
  }
}

/** The resident set size of process `pid` (`VmRSS` of `/proc/<pid>/status`), bytes; `NaN` when unreadable. */
function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? Number.NaN : Number(kb) * 1024;
  } catch {
    return Number.NaN;
  }
}

/** Runs `phase` on `clients` and measures the CPU of this process and of the server `pid`. */
async function timedPhase(
  clients: readonly KeyedLockClient[],
  phase: NamesPhase,
  pid: number,
): Promise<{ timed: TimedRound[][]; cpuMsPerRound: number }> {
  const clock = cpuClock([pid]);
  const before = await clock();
  const timed = (await Promise.all(clients.map((c, g) => runNamedClients(phase, g, 1, c.lock)))).flat();
  return { timed, cpuMsPerRound: ((await clock()) - before) / roundsOf(timed) };
}

/**
 * A reference lock (`make(g)` is client g, its own connection) on one key and on `s.names` keys,
 * with `share` of the critsec rows' rounds; `measure()` reads the server's own memory measure,
 * before and after the many-keys phase.
 */
async function referenceRows(
  s: NamesSizes,
  label: string,
  server: ReferenceServer,
  share: number,
  make: (g: number) => Promise<KeyedLockClient>,
  measure: { what: string; read(): Promise<number> },
): Promise<NamesRow[]> {
  const p = phases(s, share);
  const clients: KeyedLockClient[] = [];
  try {
    for (let g = 0; g < s.n * s.clientsPerMember; g++) clients.push(await make(g));
    await Promise.all(
      clients.map((c, g) =>
        runNamedClients({ ...p.warmup, rounds: Math.ceil(p.warmup.rounds / 10) }, g, 1, c.lock),
      ),
    );
    const one = await timedPhase(clients, p.one, server.pid);
    const [own0, rss0] = [await measure.read(), rssOf(server.pid)];
    const many = await timedPhase(clients, p.many, server.pid);
    const [own1, rss1] = [await measure.read(), rssOf(server.pid)];
    const used = distinctNames(p.many);
    return [
      { label: `${label}, 1 key`, names: 1, ...one },
      {
        label: `${label}, ${s.names.toLocaleString('en-US')} keys`,
        names: used,
        ...many,
        memory: { perName: (own1 - own0) / used, rssPerName: (rss1 - rss0) / used, what: measure.what },
      },
    ];
  } finally {
    for (const c of clients) await c.close();
  }
}

/** The single-Redis lock (SET NX PX + compare-and-delete script) on one key and on `s.names` keys. */
export function redisNamesRows(s: NamesSizes, server: ReferenceServer): Promise<NamesRow[]> {
  return referenceRows(
    s,
    `Redis ${server.version} lock (SET NX PX + Lua release)`,
    server,
    1,
    (g) => redisKeyedLockClient(server.port, `c${g}`),
    { what: 'used_memory (INFO memory)', read: () => redisUsedMemory(server.port) },
  );
}

/** etcd's lock (`etcd3` `lock()`: lease + txn) on one key and on `s.names` keys, a tenth of the rounds. */
export function etcdNamesRows(s: NamesSizes, server: ReferenceServer): Promise<NamesRow[]> {
  return referenceRows(
    s,
    `etcd ${server.version} lock (etcd3 client, lease + txn), 1 member`,
    server,
    0.1,
    async () => etcdKeyedLockClient(server.port),
    { what: 'dbSize (the MVCC store, history until compaction)', read: () => etcdDbSize(server.port) },
  );
}
