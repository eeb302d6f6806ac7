/*
 * `critsec bench`: the table of message complexity and waiting time of every algorithm over
 * every coterie, for n ∈ {16, 64, 256, 1024}, beside the papers' bounds (see bounds.ts) and the
 * Ricart–Agrawala baseline — measured in the papers' setting: the sequential workload (one
 * invocation in flight at a time) with unit delays.
 */
import { COTERIE_NAMES, type CoterieName, nearestCoterieSize } from '@critsec/coteries';
import { ConfigurationError } from '@critsec/core';
import { parseChoice, parseInteger } from '@critsec/core/kit';
import { resolveSimulation, runSimulation } from './simulate.js';
import { fmt, type RunSummary } from './summary.js';

/** The algorithms of the global (l,k)-CS family the bench tables (Kamei & Kakugawa 2019, Sec. 6). */
export const GLOBAL_ALGORITHMS = ['mutex', 'ricart-agrawala', 'mutin', 'kmutex', 'gcs'] as const;

/** An algorithm of {@link GLOBAL_ALGORITHMS}. */
type GlobalAlgorithmName = (typeof GLOBAL_ALGORITHMS)[number];

/** The sizes of the full bench. */
const BENCH_SIZES: readonly number[] = [16, 64, 256, 1024];
/** The sizes of `--quick`. */
const QUICK_BENCH_SIZES: readonly number[] = [16, 64];

/** Options of `critsec bench`. */
export interface BenchInput {
  /** Nominal sizes, e.g. `16,64` (default 16, 64, 256, 1024; 16, 64 with `quick`). */
  readonly n?: string | readonly number[];
  /** Use the smaller sizes 16 and 64 (when `n` is not given). */
  readonly quick?: boolean;
  /** Comma-separated algorithms (default all). */
  readonly algorithms?: string;
  /** Comma-separated coteries (default all). */
  readonly coteries?: string;
  /** Rounds per process (default 1: every process makes one exit+entry pair). */
  readonly rounds?: number | string;
  /** The runs' seed, an integer ≥ 0 (default 1). */
  readonly seed?: number | string;
}

/** A validated bench. */
export interface BenchSettings {
  /** Nominal sizes. */
  readonly sizes: readonly number[];
  /** Algorithms benched. */
  readonly algorithms: readonly GlobalAlgorithmName[];
  /** Coteries benched (for the algorithms that take one). */
  readonly coteries: readonly CoterieName[];
  /** Rounds per process. */
  readonly rounds: number;
  /** The runs' seed. */
  readonly seed: number;
}

/** One run of the bench. */
export interface BenchCase {
  /** The nominal size (16, 64, …). */
  readonly nominal: number;
  /** The algorithm. */
  readonly algorithm: GlobalAlgorithmName;
  /** `null` for ricart-agrawala. */
  readonly coterie: CoterieName | null;
  /** The size the coterie is built for: the nominal one, or the nearest that exists. */
  readonly n: number;
  /** The problem's l (⌈n/8⌉; 0 for the mutexes). */
  readonly l: number;
  /** The problem's k (⌈n/2⌉, at least l + 1; 1 for the mutexes, n for mutin). */
  readonly k: number;
}

/** A row of the bench: the case and its summary. */
export interface BenchRow extends BenchCase {
  /** The run's summary. */
  readonly summary: RunSummary;
}

/** The bench's result. */
export interface BenchResult {
  /** The validated settings. */
  readonly settings: BenchSettings;
  /** One row per case, in order. */
  readonly rows: readonly BenchRow[];
  /** Wall-clock duration of the whole bench, ms. */
  readonly wallMs: number;
  /** Every run was safe and live, and met every bound. */
  readonly ok: boolean;
}

function list<T extends string>(what: string, text: string | undefined, all: readonly T[]): T[] {
  if (text === undefined) return [...all];
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0) throw new ConfigurationError(`--${what}: give at least one of ${all.join(', ')}`);
  return items.map((s) => parseChoice(what.replace(/s$/, ''), s, all));
}

/**
 * Validates the bench options.
 * @throws ConfigurationError for an unknown algorithm or coterie, or a size that is not an
 *   integer ≥ 1.
 */
export function resolveBench(input: BenchInput): BenchSettings {
  let sizes: number[];
  if (input.n === undefined) sizes = [...(input.quick ? QUICK_BENCH_SIZES : BENCH_SIZES)];
  else if (typeof input.n === 'string') sizes = input.n.split(',').map((s) => parseInteger('n', s, 1));
  else sizes = input.n.map((x) => parseInteger('n', x, 1));
  return {
    sizes,
    algorithms: list('algorithms', input.algorithms, GLOBAL_ALGORITHMS),
    coteries: list('coteries', input.coteries, COTERIE_NAMES),
    rounds: parseInteger('rounds', input.rounds ?? 1, 1),
    seed: parseInteger('seed', input.seed ?? 1, 0),
  };
}

/** l = ⌈n/8⌉ and k = ⌈n/2⌉ (k ≥ l + 1), the bench's bounds for mutin, kmutex and gcs. */
function benchLK(n: number): {
  /** ⌈n/8⌉ (0 for n = 1). */
  l: number;
  /** ⌈n/2⌉, at least l + 1 and at most n. */
  k: number;
} {
  if (n === 1) return { l: 0, k: 1 };
  const l = Math.max(1, Math.ceil(n / 8));
  const k = Math.min(n, Math.max(l + 1, Math.ceil(n / 2)));
  return { l: Math.min(l, k - 1), k };
}

/** The cases of a bench, in table order: per size, Ricart–Agrawala first, then per coterie every algorithm. */
export function benchCases(s: BenchSettings): BenchCase[] {
  const cases: BenchCase[] = [];
  for (const nominal of s.sizes) {
    if (s.algorithms.includes('ricart-agrawala')) {
      cases.push({ nominal, algorithm: 'ricart-agrawala', coterie: null, n: nominal, l: 0, k: 1 });
    }
    for (const coterie of s.coteries) {
      const n = nearestCoterieSize(coterie, nominal);
      for (const algorithm of s.algorithms) {
        if (algorithm === 'ricart-agrawala') continue;
        const { l, k } = benchLK(n);
        cases.push({
          nominal,
          algorithm,
          coterie,
          n,
          l: algorithm === 'gcs' || algorithm === 'mutin' ? l : 0,
          k: algorithm === 'mutex' ? 1 : algorithm === 'mutin' ? n : k,
        });
      }
    }
  }
  return cases;
}

/** Hooks of {@link runBench}. */
export interface BenchHooks {
  /** Invocations completed over the whole bench. */
  readonly onProgress?: (completed: number, total: number) => void;
}

/** Runs every case of the bench (sequential workload, unit delays). */
export async function runBench(s: BenchSettings, hooks: BenchHooks = {}): Promise<BenchResult> {
  const t0 = performance.now();
  const cases = benchCases(s);
  const total = cases.reduce((sum, c) => sum + 2 * c.n * s.rounds, 0);
  let before = 0;
  const rows: BenchRow[] = [];
  for (const c of cases) {
    const settings = resolveSimulation({
      algorithm: c.algorithm,
      n: c.n,
      params: {
        ...(c.algorithm === 'gcs' || c.algorithm === 'mutin' ? { l: c.l } : {}),
        ...(c.algorithm === 'gcs' || c.algorithm === 'kmutex' ? { k: c.k } : {}),
        ...(c.coterie === null ? {} : { coterie: c.coterie }),
      },
      rounds: s.rounds,
      seed: s.seed,
      delay: 'unit',
      workload: 'sequential',
    });
    const base = before;
    const summary = await runSimulation(settings, {
      ...(hooks.onProgress ? { onProgress: (done: number) => hooks.onProgress?.(base + done, total) } : {}),
    });
    before += 2 * c.n * s.rounds;
    rows.push({ ...c, summary });
  }
  const ok = rows.every((r) => r.summary.ok && Object.values(r.summary.boundsMet).every((m) => m !== false));
  return { settings: s, rows, wallMs: performance.now() - t0, ok };
}

const within = (s: RunSummary) => (Object.values(s.boundsMet).some((m) => m === false) ? '**no**' : 'yes');

/** The bench as a markdown table (one row per run). */
export function formatBenchMarkdown(r: BenchResult): string {
  const out: string[] = [];
  out.push(
    `Sequential workload (one invocation in flight at a time), unit delays, ${r.settings.rounds} exit+entry pair(s) per process, seed ${r.settings.seed}; l = ⌈n/8⌉, k = ⌈n/2⌉. Messages count self-messages; waiting times in time units (measured max ≤ paper's bound).`,
    '',
    '| n | algorithm | coterie | \\|Q\\| | l, k | messages / pair (mean, max) | bound | entry wait (max) | bound | exit wait (max) | bound | within bounds |',
    '| ---: | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const row of r.rows) {
    const s = row.summary;
    const q =
      s.quorumSize === null
        ? '—'
        : s.quorumSize.min === s.quorumSize.max
          ? `${s.quorumSize.max}`
          : `${s.quorumSize.min}–${s.quorumSize.max}`;
    const n = row.n === row.nominal ? `${row.n}` : `${row.n} (≈${row.nominal})`;
    const safe = s.ok ? '' : ' — **FAILED**';
    out.push(
      `| ${n} | ${row.algorithm} | ${row.coterie ?? '— (all n − 1 others)'} | ${q} | ${row.l}, ${row.k} | ${fmt(s.messages.perPair.mean, 1)}, ${fmt(s.messages.perPair.max)} | ${fmt(s.bounds.messagesPerPair)} = ${s.bounds.formula.replaceAll('|', '\\|')} | ${fmt(s.waitingTime.entry.max)} | ${s.bounds.waitingTimeEntry} | ${fmt(s.waitingTime.exit.max)} | ${s.bounds.waitingTimeExit} | ${within(s)}${safe} |`,
    );
  }
  out.push(
    '',
    'Bounds: Maekawa 1985 (3·|Q|; entry 2, exit 0), Ricart & Agrawala 1981 (2(n−1); entry 2, exit 0), Kamei & Kakugawa 2019 — MUTIN Lemmas 3–4 (mx + 6·|Q|; exit 7, entry 2), k-mutex = Co-MUTIN(n−k) by Thm. 1 (entry 7, exit 2), (l,k)-GCS Theorem 4 (lmin + kmex messages; entry 9, exit 9).',
    `Wall time ${fmt(r.wallMs / 1000, 1)} s.`,
  );
  return out.join('\n');
}

/** The bench as JSON: the settings and, per run, the case and its `--json` summary. */
export function benchJSON(r: BenchResult): unknown {
  return {
    settings: r.settings,
    ok: r.ok,
    wallMs: r.wallMs,
    rows: r.rows.map(({ summary, ...c }) => ({ ...c, summary })),
  };
}
