/*
 * The plug-in contract: what one algorithm *is*, described once, in its own package. A
 * descriptor names the algorithm and its paper, declares its parameters (a valibot schema: the
 * cluster configuration's `params` is checked against it and the `critsec` command line derives
 * its flags and help from it), and builds — from those parameters and n — everything a run needs:
 * the factory, the problem spec, the request draw, the initial configuration and the paper's
 * bounds, weighing the structure's memory before building it. `@critsec/cluster` keeps a list of
 * descriptors (ours, and any a user passes), and nothing else in the annex knows an algorithm by
 * name. ARCHITECTURE.md §2 ("Algorithm descriptors").
 */
import type { CSFactory } from './cs-object.js';
import type { CSState, ProcessId } from './process.js';
import type { ParamEntries, ParamsSchema, ParamValues } from './params.js';
import type { Rng } from './rng.js';
import type { ProblemSpec } from './spec.js';

/** A paper's bounds for one algorithm and structure, printed beside the measured figures. */
export interface PaperBounds {
  /** Messages per exit+entry pair without contention (an upper bound; self-messages counted). */
  readonly messagesPerPair: number;
  /** Waiting time of entry, time units (unit delays, no contention). */
  readonly waitingTimeEntry: number;
  /** Waiting time of exit, time units (unit delays, no contention). */
  readonly waitingTimeExit: number;
  /** Where the bounds come from: paper, section, theorem. */
  readonly source: string;
  /** The message bound as a formula, e.g. `2·(3|Q| + 6|Q|)`. */
  readonly formula: string;
}

/**
 * The memory a structure will take, estimated from the parameters before it is built (closed
 * forms: nothing is allocated), in quorum memberships.
 */
export interface MemoryEstimate {
  /** Number of processes. */
  readonly n: number;
  /**
   * Quorum memberships: n · |Q|max for a coterie, n · n for Ricart–Agrawala, n · Σ_h |Q_h|max for
   * an (h,k)-arbiter, n · m · c for a group quorum system, 2·edges + n for a graph.
   */
  readonly memberships: number;
  /** The structure in words, for the message (`the grid coterie`, `Ricart–Agrawala`). */
  readonly what: string;
  /** What the user gave, opening the message (default `--n <n>`; `--graph complete:20000 (n = 20000)`). */
  readonly subject?: string;
  /** The smaller input that helps, for the message (default `a smaller --n`). */
  readonly remedy?: string;
  /** Bytes one membership costs for this structure, measured (default: a coterie's, 400 B). */
  readonly bytesPerMembership?: number;
  /** Bytes one process costs besides its memberships, measured (default 24 KiB). */
  readonly bytesPerProcess?: number;
  /**
   * How many n-bit quorum sets the structure's validation holds (a coterie: at most one per
   * process, n; default 0).
   */
  readonly quorumSets?: number;
}

/** What a descriptor's `build` may ask of the program running it. */
export interface BuildContext {
  /**
   * Weighs a structure before it is built.
   * @throws ConfigurationError when it would not fit this process's heap, naming the remedy.
   */
  weigh(estimate: MemoryEstimate): void;
  /**
   * Reads and parses a JSON file a parameter names (a graph, per-process bounds).
   * @throws ConfigurationError naming `what` and the file when it is missing or not JSON.
   */
  readJson(path: string, what: string): unknown;
  /** True when `path` names an existing file (a parameter that is a notation or a file). */
  isFile(path: string): boolean;
}

/** Draws the request of an entry (h units, a group), from a per-process stream of the run's seed. */
export type RequestDraw = (rng: Rng, id: ProcessId, round: number) => unknown;

/** Everything a run of one algorithm needs, built by its descriptor from parameters and n. */
export interface BuiltAlgorithm {
  /** Number of processes. */
  readonly n: number;
  /**
   * The problem's l and k: the global (l,k)-CS (mutex: 0 and 1; mutin: k = n; kmutex: l = 0);
   * h-out-of-k: 0 and the units k; group-mutex: 0 and n; local-cs: the smallest lᵢ and the
   * largest kᵢ.
   */
  readonly l: number;
  /** The problem's k (see `l`). */
  readonly k: number;
  /** The coterie's construction name (`grid`, …), `null` where the algorithm runs over none. */
  readonly coterieName: string | null;
  /** The coterie in words (its `description`), `null` where none. */
  readonly coterieDescription: string | null;
  /** Smallest and largest quorum size |Q_i| (arbiter quorums |q|, cartel quorums), `null` where none. */
  readonly quorumSize: {
    /** Smallest quorum size. */
    readonly min: number;
    /** Largest quorum size. */
    readonly max: number;
  } | null;
  /** The mutual exclusion a composite uses inside (MUTIN's `mx`), `null` where none. */
  readonly mx: string | null;
  /** The structure in words (an arbiter, a group quorum system, a graph), `null` when the coterie says it. */
  readonly structure: string | null;
  /**
   * The parameters that reproduce this build, by name (`{ k: 3, arbiter: 'cube', h: 'random' }`):
   * the replay command's flags and a cluster configuration's `params`.
   */
  readonly options: Readonly<Record<string, string | number>>;
  /** The safety property checked. */
  readonly spec: ProblemSpec;
  /**
   * The narrower problem the sequential (uncontended) workload picks its moves from, when the
   * algorithm keeps tighter bounds in normal operation (LKCS: its L_i, K_i), else `null`.
   */
  readonly sequentialSpec: ProblemSpec | null;
  /** The factory every process's CS object is made by. */
  readonly factory: CSFactory<unknown>;
  /** Draws each entry's request (h-out-of-k, group-mutex), `null` for objects that take none. */
  readonly request: RequestDraw | null;
  /** The requests in words (`h uniform in 1..3`), `null` where none. */
  readonly requestDescription: string | null;
  /** The initial configuration, one state per process (safe for `spec`). */
  readonly initial: readonly CSState[];
  /** The initial configuration in words, e.g. `P0–P2 InCS, the rest OutCS (default: the first l)`. */
  readonly initialDescription: string;
  /** The `init` parameter text that reproduces it. */
  readonly init: string;
  /** The paper's bounds on messages per pair and waiting times for this structure and n. */
  readonly bounds: PaperBounds;
}

/**
 * One algorithm, described once (the plug-in contract; see the module comment). Each algorithm
 * package exports its descriptors (`maekawaDescriptor`, `gcsDescriptor`, …); a user wraps their
 * own CS factory in one to run it under `critsec simulate`, `critsec cluster` and `critsec node`.
 *
 * @typeParam E - the parameters' schema entries.
 */
export interface AlgorithmDescriptor<E extends ParamEntries = ParamEntries> {
  /** The name a command line and a cluster configuration give it (`mutex`, `gcs`), unique in a list. */
  readonly name: string;
  /** One line: what it solves and where it comes from (paper, section, figure). */
  readonly title: string;
  /** The n a run takes when none is given, or `null` when the parameters say it (a graph's). */
  readonly defaultN: number | null;
  /**
   * `true` when the algorithm supports crash recovery (issue 27): its factory's objects implement
   * `DurableCSObject` (`durable.ts`) and its factory builds an object from
   * `ProcessContext.recovered`. Absent: its processes cannot resume after a crash, and must not be
   * restarted with a recovered state.
   */
  readonly crashRecovery?: true;
  /** Its parameters, one described entry each (the flag `--<name>`); see `param` and `params`. */
  readonly params: ParamsSchema<E>;
  /**
   * Validates the parameters' values and builds the run: weighs the structure with `ctx.weigh`
   * before building it, and refuses an initial configuration that is not safe.
   * @param values - checked against `params` already (names and types); ranges and words are
   *   this function's to check.
   * @param n - the number of processes, or `undefined` to take `defaultN` (or the structure's).
   * @throws ConfigurationError (one line: what was wrong, what is accepted) for any bad value.
   */
  build(values: ParamValues<E>, n: number | undefined, ctx: BuildContext): BuiltAlgorithm;
}

/** Identity with inference: declares a descriptor with its parameters' types checked. */
export function defineAlgorithm<E extends ParamEntries>(d: AlgorithmDescriptor<E>): AlgorithmDescriptor<E> {
  return d;
}
