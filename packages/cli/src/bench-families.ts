/*
 * `critsec bench h-out-of-k | group-mutex | local-cs`: the tables of the papers beyond the global
 * (l,k)-CS, measured in the papers' setting (the sequential workload: one invocation in flight in
 * the whole cluster, unit delays) and, where the paper bounds it, under the concurrent workload.
 *
 * - h-out-of-k (Manabe & Tajima, Sec. 3–4): per n, arbiter and h, the quorum size |q_{h,k}| and the
 *   messages per request beside 3·|q_{h,k}|; the (h,k)-arbiters beside the k-arbiter of the same
 *   construction (the paper's claim: an (h,k)-arbiter's quorums are never larger).
 * - group-mutex (Joung 2003, Sec. 4.4): the surficial system beside T_m of the grid and the
 *   projective plane — quorum sizes, degree, messages per entry of Maekawa_M and Maekawa_S, and
 *   the most processes InCS at once under the concurrent workload.
 * - local-cs (Kamei & Kakugawa 2017, Lemmas 3 and 6): messages per exit+entry pair by |N_i| on
 *   several graphs, sequential (against 3(|N_i|+1) / 6(|N_i|+1)) and concurrent (against
 *   6(|N_i|+1) / 12(|N_i|+1)).
 */
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { type ClusterInput, type ResolvedCluster, resolveCluster } from '@critsec/cluster';
import { resolveSimulation, runSimulation } from './simulate.js';
import { fmt } from './summary.js';

/** The families with a table of their own. */
export const BENCH_FAMILIES: readonly BenchFamily[] = ['h-out-of-k', 'group-mutex', 'local-cs'];

/** A family with a table of its own. */
export type BenchFamily = 'h-out-of-k' | 'group-mutex' | 'local-cs';

/** A family's bench table. */
export interface FamilyBench {
  /** The algorithm family benched. */
  readonly family: BenchFamily;
  /** What was measured, in one paragraph. */
  readonly setting: string;
  /** The table's column headings. */
  readonly columns: readonly string[];
  /** The table's rows, one per run, cells in `columns` order. */
  readonly rows: readonly (readonly (string | number)[])[];
  /** Every run was safe and live and every bound checked held. */
  readonly ok: boolean;
  /** The runs that failed or broke a bound, as replay commands or descriptions. */
  readonly failures: readonly string[];
}

/** Options of a family bench (sizes per family have defaults). */
export interface FamilyBenchInput {
  /** Sizes n (h-out-of-k: default 27, 64, 125, 256; group-mutex: the surficial sizes of each m). */
  readonly sizes?: readonly number[];
  /** Rounds per process (default 1). */
  readonly rounds?: number;
  /** The runs' seed (default 1). */
  readonly seed?: number;
  /** Called after each run (`done` of `total`). */
  readonly onProgress?: (done: number, total: number) => void;
}

const range = (min: number, max: number) => (min === max ? `${max}` : `${min}–${max}`);

/** Runs a resolved cluster under a workload and returns the workload's records. */
async function runResolved(
  c: ResolvedCluster,
  kind: 'sequential' | 'concurrent',
  rounds: number,
  seed: number,
): Promise<WorkloadResult> {
  const cluster = createCluster({
    factory: c.factory,
    // the sequential workload moves within the algorithm's own narrower bounds, if it has them
    spec: kind === 'sequential' ? (c.sequentialSpec ?? c.spec) : c.spec,
    initial: c.initial,
    seed,
    attribution: true,
  });
  const r = await runWorkload(cluster, {
    kind,
    rounds,
    ...(c.request === null ? {} : { request: c.request }),
  });
  await cluster.close();
  return r;
}

async function hOutOfKBench(input: FamilyBenchInput): Promise<FamilyBench> {
  const sizes = input.sizes ?? [27, 64, 125, 256];
  const k = 3;
  const arbiters = ['uniform', 'uniform-k', 'cube', 'cube-k'] as const;
  const total = sizes.length * arbiters.length * k;
  const rows: (string | number)[][] = [];
  const failures: string[] = [];
  let done = 0;
  for (const n of sizes) {
    for (const arbiter of arbiters) {
      for (let h = 1; h <= k; h++) {
        const s = resolveSimulation({
          algorithm: 'h-out-of-k',
          n,
          params: { k, arbiter, h },
          workload: 'sequential',
          rounds: input.rounds ?? 1,
          seed: input.seed ?? 1,
        });
        const r = await runSimulation(s);
        const q = r.quorumSize!;
        const within = r.ok && r.boundsMet.messagesPerPair === true;
        if (!within) failures.push(r.replay);
        rows.push([
          n,
          arbiter,
          h,
          range(q.min, q.max),
          `${fmt(r.messages.perPair.mean, 1)}, ${fmt(r.messages.perPair.max)}`,
          r.bounds.messagesPerPair,
          within ? 'yes' : 'NO',
        ]);
        input.onProgress?.(++done, total);
      }
    }
  }
  return {
    family: 'h-out-of-k',
    setting: `k = ${k} units; one request of h units per process (sequential workload, unit delays); |q_{h,k}| smallest–largest over the processes; the -k arbiters are k-arbiters with the same quorum for every h.`,
    columns: [
      'n',
      'arbiter',
      'h',
      '|q_{h,k}|',
      'messages / request (mean, max)',
      'bound 3·|q_{h,k}|',
      'within',
    ],
    rows,
    ok: failures.length === 0,
    failures,
  };
}

async function groupMutexBench(input: FamilyBenchInput): Promise<FamilyBench> {
  const cases: { n: number; m: number }[] = [
    { n: 16, m: 2 },
    { n: 64, m: 2 },
    { n: 27, m: 3 },
    { n: 75, m: 3 },
    { n: 24, m: 4 },
    { n: 54, m: 4 },
  ].filter((c) => input.sizes === undefined || input.sizes.includes(c.n));
  const systems = ['surficial', 'grid', 'projective-plane'] as const;
  const total = cases.length * systems.length;
  const rows: (string | number)[][] = [];
  const failures: string[] = [];
  let done = 0;
  for (const { n, m } of cases) {
    for (const system of systems) {
      // T_m of a projective plane needs n = q² + q + 1: the nearest plane below n
      const size = system === 'projective-plane' ? [7, 13, 31, 57, 73].filter((x) => x <= n).at(-1)! : n;
      const common = {
        algorithm: 'group-mutex',
        n: size,
        rounds: input.rounds ?? 1,
        seed: input.seed ?? 1,
      };
      const runs = [];
      for (const variant of ['M', 'S'] as const) {
        const r = await runSimulation(
          resolveSimulation({ ...common, params: { m, system, variant }, workload: 'sequential' }),
        );
        if (!(r.ok && r.boundsMet.messagesPerPair === true)) failures.push(r.replay);
        runs.push(r);
      }
      const busy = await runSimulation(
        resolveSimulation({ ...common, params: { m, system, variant: 'M' }, rounds: 5 }),
      );
      if (!busy.ok) failures.push(busy.replay);
      const [mm, ss] = runs as [(typeof runs)[number], (typeof runs)[number]];
      const degree = /degree (\d+)/.exec(mm.structure ?? '')?.[1] ?? '—';
      rows.push([
        size,
        m,
        system === 'surficial' ? 'surficial' : `T_m(${system})`,
        range(mm.quorumSize!.min, mm.quorumSize!.max),
        degree,
        `${fmt(mm.messages.perPair.max)} (≤ ${mm.bounds.messagesPerPair})`,
        `${fmt(ss.messages.perPair.max)} (≤ ${ss.bounds.messagesPerPair})`,
        `${fmt(ss.waitingTime.entry.max)} (≤ ${ss.bounds.waitingTimeEntry})`,
        fmt(busy.concurrency.max),
      ]);
      input.onProgress?.(++done, total);
    }
  }
  return {
    family: 'group-mutex',
    setting:
      'Sequential workload, unit delays, groups drawn uniformly per entry; messages per entry max (Maekawa_M: 3c, Theorems 5–6; Maekawa_S: 2c + 1 and delay c + 1, Theorem 9); most InCS at once: Maekawa_M under the concurrent workload, 5 rounds.',
    columns: [
      'n',
      'm',
      'system',
      'quorum size c',
      'degree',
      'M: messages / entry',
      'S: messages / entry',
      'S: entry delay',
      'most InCS at once (M)',
    ],
    rows,
    ok: failures.length === 0,
    failures,
  };
}

async function localCsBench(input: FamilyBenchInput): Promise<FamilyBench> {
  const cases: ClusterInput[] = [];
  for (const graph of ['ring:16', 'grid:4x4', 'star:8', 'complete:6', 'random:30:0.2', 'abilene']) {
    cases.push({ algorithm: 'local-cs', params: { algorithm: 'lmutin', graph, l: 1 } });
    cases.push({ algorithm: 'local-cs', params: { algorithm: 'lmutex', graph, k: 2 } });
  }
  cases.push({ algorithm: 'local-cs', params: { algorithm: 'lkcs', graph: 'complete:6', l: 1, k: 5 } });
  cases.push({ algorithm: 'local-cs', params: { algorithm: 'lkcs', graph: 'complete:8', l: 2, k: 7 } });
  const rows: (string | number)[][] = [];
  const failures: string[] = [];
  let done = 0;
  for (const input0 of cases) {
    const c = resolveCluster(input0);
    const name = String(c.options.algorithm);
    const factor = name === 'lkcs' ? 6 : 3;
    const byDegree = new Map<number, { seq: number[]; con: number[] }>();
    for (const kind of ['sequential', 'concurrent'] as const) {
      const r = await runResolved(c, kind, kind === 'sequential' ? (input.rounds ?? 1) : 5, input.seed ?? 1);
      if (!r.ok) failures.push(`${name} on ${c.options.graph} (${kind}): ${r.failure}`);
      const pairs = new Map<string, number>();
      for (const rec of r.records) {
        if (rec.extra || rec.aborted) continue;
        const key = `${rec.process}:${rec.round}`;
        pairs.set(key, (pairs.get(key) ?? 0) + rec.messages);
      }
      for (const [key, count] of pairs) {
        const d = (
          c.spec.kind === 'local' ? c.spec.graph.neighbors[Number(key.split(':')[0])]!.length : 0
        ) as number;
        const e = byDegree.get(d) ?? { seq: [], con: [] };
        (kind === 'sequential' ? e.seq : e.con).push(count);
        byDegree.set(d, e);
      }
    }
    for (const [d, { seq, con }] of [...byDegree].sort(([a], [b]) => a - b)) {
      const best = factor * (d + 1);
      const seqMax = Math.max(...seq);
      const conMax = Math.max(...con);
      // Lemma 6 does not count LKCS's sidetrack (Trigger, RequestByTrigger and their grants), which
      // contention may use: its concurrent figures are shown, not judged
      const worstBroken = name !== 'lkcs' && conMax > 2 * best;
      if (seqMax > best || worstBroken) failures.push(`${name} on ${c.options.graph}, |N_i| = ${d}`);
      rows.push([
        String(c.options.graph),
        name,
        d,
        seq.length,
        `${fmt(seq.reduce((a, b) => a + b, 0) / seq.length, 1)}, ${seqMax}`,
        best,
        `${fmt(con.reduce((a, b) => a + b, 0) / con.length, 1)}, ${conMax}`,
        2 * best,
      ]);
    }
    input.onProgress?.(++done, cases.length);
  }
  return {
    family: 'local-cs',
    setting:
      'Messages per exit+entry pair by |N_i|, self-messages counted: sequential workload (no contention) against Lemma 3 / Lemma 6 best case 3(|N_i|+1) (LMUTIN, LMUTEX) or 6(|N_i|+1) (LKCS), and concurrent workload (5 rounds, causal attribution) against the worst case 6(|N_i|+1) / 12(|N_i|+1).',
    columns: [
      'graph',
      'algorithm',
      '|N_i|',
      'pairs',
      'sequential (mean, max)',
      'best-case bound',
      'concurrent (mean, max)',
      'worst-case bound',
    ],
    rows,
    ok: failures.length === 0,
    failures,
  };
}

/**
 * Runs the bench table of one family (see the module comment).
 * @throws ConfigurationError for a size the family's constructions refuse.
 */
export function runFamilyBench(family: BenchFamily, input: FamilyBenchInput = {}): Promise<FamilyBench> {
  switch (family) {
    case 'h-out-of-k':
      return hOutOfKBench(input);
    case 'group-mutex':
      return groupMutexBench(input);
    case 'local-cs':
      return localCsBench(input);
  }
}

/** A family bench as markdown: the setting, the table, and the failures if any. */
export function formatFamilyBench(b: FamilyBench): string {
  const cell = (x: string | number) => String(x).replaceAll('|', '\\|');
  const out = [
    b.setting,
    '',
    `| ${b.columns.map(cell).join(' | ')} |`,
    `| ${b.columns.map(() => '---').join(' | ')} |`,
    ...b.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
  if (!b.ok)
    out.push(
      '',
      `**${b.failures.length} run(s) failed or broke a bound:**`,
      ...b.failures.map((f) => `- ${f}`),
    );
  return out.join('\n');
}
