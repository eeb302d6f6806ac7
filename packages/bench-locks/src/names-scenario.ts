/**
 * The "1,000 names" scenario of `npm run bench:locks` (issue 29): 1,000 distinct names in use
 * across 5 `@critsec/locks` members (5 OS processes, mutual TLS on loopback), beside the
 * single-name figure of the same members and beside Redis and etcd doing the same with 1,000
 * keys, in one run — the rows in that order, then their ratios.
 */
import type { Certificates } from './critsec-clusters.js';
import {
  critsecNamesRows,
  etcdNamesRows,
  type NamesRow,
  type NamesSizes,
  redisNamesRows,
  type ReferenceServer,
} from './names-systems.js';
import { namesRatios, namesTable } from './names-table.js';

/**
 * The default sizes: 5 members, 1,000 names, 4 clients per member (20 clients), 500 timed
 * rounds per client on the names (10,000 acquisitions; etcd 1,000) and 100 on one name (2,000;
 * etcd 200), after 500 warm-up rounds per client (a fresh member process's code is compiled by
 * V8 over its first ~2,000 rounds: the README's "Warm-up").
 */
export const NAMES_SIZES: NamesSizes = {
  n: 5,
  names: 1_000,
  clientsPerMember: 4,
  rounds: 500,
  oneRounds: 100,
  warmup: 500,
};

/** What the scenario runs against. */
export interface NamesScenarioOptions {
  readonly sizes: NamesSizes;
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
export interface NamesScenarioResult {
  readonly rows: readonly NamesRow[];
  readonly text: string;
}

/**
 * Runs the scenario: the critsec members, then Redis, then etcd (each system's one-name phase
 * right before its many-names phase).
 * @throws TransportError when a member fails; what the Redis or etcd clients throw.
 */
export async function runNamesScenario(o: NamesScenarioOptions): Promise<NamesScenarioResult> {
  const log = o.log ?? console.log;
  const s = o.sizes;
  const rows: NamesRow[] = [];
  const step = async (what: string, run: () => Promise<NamesRow[]>) => {
    const t0 = performance.now();
    rows.push(...(await run()));
    log(`names scenario: ${what} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  };
  await step('@critsec/locks', () => critsecNamesRows(s, o.certs));
  if (o.redis) await step('Redis', () => redisNamesRows(s, o.redis!));
  if (o.etcd) await step('etcd', () => etcdNamesRows(s, o.etcd!));
  const clients = s.n * s.clientsPerMember;
  const title =
    `${s.names.toLocaleString('en-US')} names, n = ${s.n}, ${clients} clients (${s.clientsPerMember} per member; ` +
    'in sweeps over the names, each sweep in its own seeded random order; no hold or think time)';
  return { rows, text: `${title}\n\n${namesTable(rows, clients)}\n\n${namesRatios(rows)}` };
}
