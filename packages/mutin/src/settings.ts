/** The settings of one MUTIN(l) process (Kakugawa, l-mutual inclusion, Algorithms 1–2). */
import type { CSFactory, ProcessId } from '@critsec/core';

/** Per-process constants, computed once per coterie (see `quorumTables`). */
export interface MutinQuorums {
  /** Q_i: the processes P_i queries and notifies. */
  readonly Q: readonly ProcessId[];
  /** R_i = { P_k : P_i ∈ Q_k }: the processes that notify P_i. */
  readonly R: readonly ProcessId[];
}

/**
 * When a quorum member answers a waiting leaver again (Algorithm 2, receipt of Release):
 *
 * - `'per-release'` (default): at every Release until the leaver's Acquire (or a newer Query)
 *   clears responseAgainTo_i — live; each Release still causes at most one Response2.
 * - `'once'`: the paper's literal rule, responseAgainTo_i := nil after the first Response2 —
 *   can deadlock (see the file header); kept to reproduce the paper.
 */
export type Response2Rule = 'per-release' | 'once';

/** The settings one MUTIN(l) process runs with (validated by the `mutin` factory). */
export interface MutinSettings {
  /** The least number of processes InCS, 0 ≤ l < n. */
  readonly l: number;
  /** The quorum Q_i of each process (a coterie). */
  readonly quorums: MutinQuorums;
  /** The mutual exclusion mx that serialises leavers (Sec. 4). */
  readonly mx: CSFactory;
  /** Default `'per-release'`. */
  readonly response2?: Response2Rule;
  /** `mx` is time-bounded: Exit() commits only while mx's tenure holds (issue 28, `mx-tenure.ts`). Default false. */
  readonly mxTenure?: boolean;
}
