/*
 * What describes a cluster — as the command line and the cluster configuration give it
 * (`ClusterInput`), and once validated and built, ready to run (`ResolvedCluster`) — for every
 * algorithm family the CLI runs: the global (l,k)-CS family, h-out-of-k, group mutex and the
 * local CS.
 */
import type { CSFactory, CSState, ProblemSpec, ProcessId } from '@critsec/core';
import type { Coterie } from '@critsec/coteries';
import type { Rng } from '@critsec/transport-sim';
import type { AlgorithmName, MxName, PaperBounds } from './bounds.js';
import type { CoterieName } from './coterie-choice.js';

/** What describes a cluster, as given on the command line (strings) or by a program (numbers). */
export interface ClusterInput {
  /** One of `ALGORITHM_NAMES`: `mutex`, `ricart-agrawala`, `mutin`, `kmutex`, `gcs`, `h-out-of-k`, `group-mutex`, `local-cs`. */
  readonly algorithm: string;
  /** Number of processes (default 25; local-cs: the graph's). */
  readonly n?: number | string;
  /** Lower bound l (gcs, mutin, local-cs; default 3, capped to fit n). */
  readonly l?: number | string;
  /** Upper bound k (gcs, kmutex, local-cs; h-out-of-k: the units; default 10, capped to n). */
  readonly k?: number | string;
  /** Coterie construction (default `grid`); ignored by ricart-agrawala. */
  readonly coterie?: string;
  /** MUTIN's mutual exclusion (mutin, kmutex, gcs; default `maekawa`). */
  readonly mx?: string;
  /** h-out-of-k: the (h,k)-arbiter, `uniform` (default) or `cube`. */
  readonly arbiter?: string;
  /** h-out-of-k: the units each entry takes, a number 1..k or `random` (default: uniform in 1..k per entry). */
  readonly h?: number | string;
  /** group-mutex: the number of groups m (default 2). */
  readonly m?: number | string;
  /** group-mutex: `M` (Maekawa_M, default) or `S` (Maekawa_S). */
  readonly variant?: string;
  /** group-mutex: the group quorum system, `surficial` (default), `grid` or `projective-plane` (T_m of that coterie). */
  readonly system?: string;
  /** local-cs: `lmutin` (default), `lmutex` or `lkcs`. */
  readonly localAlgorithm?: string;
  /** local-cs: the graph, `ring:N`, `grid:RxC`, `star:N`, `complete:N`, `random:N:P[:SEED]`, `abilene` or a JSON file. */
  readonly graph?: string;
  /** local-cs: a JSON file of per-process bounds `{ "l": [...], "k": [...] }` instead of `l` and `k`. */
  readonly boundsFile?: string;
  /** local-cs (lkcs): the leader's process id (default: one the algorithm picks). */
  readonly leader?: number | string;
  /**
   * The initial configuration: `default` (the first l processes InCS, the rest OutCS; local-cs:
   * a safe one built for the bounds), `none` (all OutCS), `all`, `first:M` (P0 … P(M−1) InCS), or
   * a comma-separated list of the process ids InCS (`0,4,7`). Must be safe for the problem.
   */
  readonly init?: string;
}

/** Draws the request of an entry (h units, a group), seeded per process. */
export type RequestDraw = (rng: Rng, id: ProcessId, round: number) => unknown;

/** A validated cluster description, ready to run. */
export interface ResolvedCluster {
  /** The algorithm's name. */
  readonly algorithm: AlgorithmName;
  /** Number of processes. */
  readonly n: number;
  /**
   * The problem's l and k: the global (l,k)-CS (mutex and ricart-agrawala: 0 and 1; mutin: k = n;
   * kmutex: l = 0); h-out-of-k: 0 and the units k; group-mutex: 0 and n; local-cs: the smallest
   * lᵢ and the largest kᵢ.
   */
  readonly l: number;
  /** The problem's k (see `l`). */
  readonly k: number;
  /** The coterie's construction (global family), else `null`. */
  readonly coterieName: CoterieName | null;
  /** The coterie the algorithm runs over (global family), else `null`. */
  readonly coterie: Coterie | null;
  /** Smallest and largest quorum size |Q_i| (arbiter quorums |q|, cartel quorums), `null` where none. */
  readonly quorumSize: {
    /** Smallest quorum size. */
    readonly min: number;
    /** Largest quorum size. */
    readonly max: number;
  } | null;
  /** MUTIN's mutual exclusion, `null` where none. */
  readonly mx: MxName | null;
  /** The structure the algorithm runs over, in words (an arbiter, a group quorum system, a graph), `null` for the global family. */
  readonly structure: string | null;
  /**
   * The algorithm's own options that reproduce it, keyed as in {@link ClusterInput}
   * (`{ k: 3, arbiter: 'cube', h: 'random' }`, `{ l: 2, k: 5, coterie: 'grid' }`): the replay
   * command's flags and the `params` of a cluster configuration.
   */
  readonly options: Readonly<Partial<Record<keyof ClusterInput, string | number>>>;
  /** The safety property checked. */
  readonly spec: ProblemSpec;
  /**
   * The narrower problem the sequential (uncontended) workload picks its moves from, when the
   * algorithm keeps tighter bounds in normal operation (LKCS: its L_i, K_i), else `null`: a move
   * only `spec` allows would wait for a deadlock breaker that never runs without contention.
   */
  readonly sequentialSpec: ProblemSpec | null;
  /** The factory every process's CS object is made by. */
  readonly factory: CSFactory<unknown>;
  /** Draws each entry's request (h-out-of-k, group-mutex), `null` for objects that take none. */
  readonly request: RequestDraw | null;
  /** The requests in words (`h uniform in 1..3`), `null` where none. */
  readonly requestDescription: string | null;
  /** The initial configuration, one state per process. */
  readonly initial: readonly CSState[];
  /** The initial configuration in words, e.g. `P0–P2 InCS, the rest OutCS (default: the first l)`. */
  readonly initialDescription: string;
  /** The `--init` text that reproduces it. */
  readonly init: string;
  /** The papers' bounds on messages per pair and waiting times for this algorithm and n. */
  readonly bounds: PaperBounds;
  /** The algorithm and its settings in words, for titles. */
  readonly title: string;
}
