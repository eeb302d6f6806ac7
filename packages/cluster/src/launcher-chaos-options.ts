/*
 * The options, steps and result of a chaos run (`runChaos`, launcher-chaos.ts): what a caller
 * passes and gets back.
 */
import type { ParamValue } from '@critsec/core';
import type { ChaosCheck } from './chaos-check.js';

/** Options of {@link runChaos}. */
export interface ChaosOptions {
  /** A critsec algorithm's descriptor name with a global (l,k)-CS spec: `mutex`, `ricart-agrawala`, `kmutex`, `gcs`, `mutin`. */
  readonly algorithm: string;
  /** Number of processes (default: the descriptor's). */
  readonly n?: number | string;
  /** The algorithm's parameters by name (as `critsec cluster` takes them). */
  readonly params?: Readonly<Record<string, ParamValue | undefined>>;
  /** How many times a member is SIGKILLed, an integer ≥ 0. */
  readonly kills: number | string;
  /**
   * What a kill restarts (default `member`): `member` — the victim alone, from its store
   * (durable members, `ClusterRun.restart` with `--recover`; the algorithm must have crash
   * recovery); `cluster` — every member, fresh, once the victim and then the others are killed;
   * `none` — nothing (crash-stop, `--no-restart`): a victim stays dead, victims are drawn among
   * the living, `kills` is at most ⌊(n − 1)/2⌋ so that a majority stays alive, the members'
   * `peerDownTimeoutMs` is lifted (a dead peer is no reason for the living to end), and the run
   * ends by killing the living once the last kill is followed by entries (a member that never
   * finishes cannot pass the members' finish barrier). The check counts a dead member's
   * unfinished call as nothing: a `crashed` member is certainly InCS no more, and a
   * read-modify-write it did not complete is no update.
   */
  readonly restart?: 'member' | 'cluster' | 'none';
  /**
   * SIGSTOP a member for this many wall-clock ms, then SIGCONT it (`--pause`; default: no
   * pauses): the victim is a holder of the CS when there is one (else any living member). Less
   * than `callTimeoutMs` and `stallTimeoutMs`, whose deadlines the paused member's peers keep
   * running meanwhile. Pauses need no crash recovery and restart nothing.
   */
  readonly pauseMs?: number | string;
  /**
   * How many pauses (default, with {@link pauseMs}: `max(1, kills)`); they are interleaved with
   * the kills in an order drawn from the seed (a run without pauses draws exactly what it drew
   * before pauses existed).
   */
  readonly pauses?: number | string;
  /** Wall-clock ms from a kill to the restart (default 200). */
  readonly restartAfterMs?: number | string;
  /** Seed of the victims, the moments and the members' think and hold times (default 1). */
  readonly seed?: number | string;
  /**
   * Deadline of one `entry()` or `exit()` in a member, ms (`callTimeoutMs`; default 120 000: a
   * member may wait for several victims to come back in turn, each a process start).
   */
  readonly callTimeoutMs?: number | string;
  /**
   * The run is stuck when no entry completes in the whole cluster for this long, ms (default
   * 60 000), counted from the moment every member of a launch has been ready (a member's start is
   * bounded by its `readyTimeoutMs`).
   */
  readonly stallTimeoutMs?: number | string;
  /**
   * When the CS gives tenures (issue 28: `mutex` with `fencing` or a `ttl`), the members read and
   * write the counter under their fencing tokens through a fencing-aware counter that rejects a
   * stale token (default true); `false` (`--no-fenced-store`): through the plain counter, which
   * accepts it — a holder paused past its ttl then loses updates, which shows the check bites.
   */
  readonly fencedStore?: boolean;
  /** Mean think time OutCS and hold time InCS of a member, ms (default 2 and 1; a holder holds between its read and its write). */
  readonly thinkMs?: number;
  /** See {@link thinkMs}. */
  readonly holdMs?: number;
  /** Where to write the cluster, counters and shared log (default: a temporary directory, removed after a run that passed). */
  readonly dir?: string;
  /** Ends the run (its members killed) with `AbortError`. */
  readonly signal?: AbortSignal;
  /** Each step of the run, from the first launch on. */
  readonly onProgress?: (p: ChaosProgress) => void;
  /** A line a member wrote to stderr. */
  readonly onMemberOutput?: (id: number, line: string) => void;
}

/** A member killed by a chaos run. */
export interface ChaosVictim {
  /** Its process id. */
  readonly id: number;
  /** Whether it held the CS (between its `entry-done` and `exit-done` progress events). */
  readonly holder: boolean;
}

/** A member paused (SIGSTOP, then SIGCONT) by a chaos run. */
export interface ChaosPause extends ChaosVictim {
  /** How long it was stopped, wall-clock ms (at least the run's `pauseMs`). */
  readonly stoppedMs: number;
}

/** A step of a chaos run. */
export interface ChaosProgress {
  /**
   * What happened: the members launched, an entry completed, a member killed, the victim or the
   * cluster restarted, a member paused (SIGSTOP) or resumed (SIGCONT), the members told to
   * finish (or, crash-stop, stopped).
   */
  readonly kind: 'launched' | 'entry' | 'killed' | 'restarted' | 'paused' | 'resumed' | 'finishing';
  /** Kills so far. */
  readonly kills: number;
  /** Restarts so far. */
  readonly restarts: number;
  /** Entries completed so far, in the whole run. */
  readonly entries: number;
  /** Pauses so far. */
  readonly pauses?: number;
  /** The member killed (`killed`) or paused (`paused`, `resumed`), and whether it held the CS. */
  readonly victim?: ChaosVictim;
}

/** What {@link runChaos} gives back. */
export interface ChaosResult {
  /** The algorithm's name, n and the upper bound k the overlap check uses. */
  readonly algorithm: string;
  /** Number of processes. */
  readonly n: number;
  /** The upper bound of the CS (1: mutual exclusion). */
  readonly k: number;
  /** Members SIGKILLed (the victims). */
  readonly kills: number;
  /** What a kill restarted: the victim alone, the whole cluster, or nothing (crash-stop). */
  readonly restart: 'member' | 'cluster' | 'none';
  /** Restarts (of the victim, or relaunches of the whole cluster). */
  readonly restarts: number;
  /** Each victim and whether it held the CS when killed. */
  readonly victims: readonly ChaosVictim[];
  /** Each member paused, in order, whether it held the CS, and for how long. */
  readonly paused: readonly ChaosPause[];
  /** The check of the shared log and the counters. */
  readonly check: ChaosCheck;
  /** No overlap, no lost update, no fencing violation, no log out of order, and the members finished. */
  readonly ok: boolean;
  /** Why not, when not ok. */
  readonly failure: string | null;
  /** Wall-clock duration, ms. */
  readonly durationMs: number;
  /** The run directory, when it was kept (given, or the run failed). */
  readonly dir: string | null;
}
