/*
 * The papers' bounds the `critsec` summary and bench print beside the measured figures, in one
 * place with their citations:
 *
 * - Maekawa, "A √N algorithm for mutual exclusion in decentralized systems", ACM TOCS 3(2), 1985
 *   (deadlock handling after Sanders, ACM TOCS 5(3), 1987): 3·|Q| messages per CS without
 *   contention (REQUEST, LOCKED, RELEASE to/from each arbiter of Q_i, self included); entry waits
 *   2 time units (REQUEST, LOCKED). Exit waits 0 here: RELEASE is fire and forget (Lemma 4 of the
 *   global-CS paper counts Maekawa's exit as 1 time unit; 0 ≤ 1).
 * - Ricart & Agrawala, "An optimal algorithm for mutual exclusion in computer networks", CACM
 *   24(1), 1981: 2(n − 1) messages per CS (REQUEST and REPLY to/from every other process); entry
 *   waits 2 (REQUEST, REPLY), exit 0 (deferred REPLYs are sent without waiting).
 * - Kamei & Kakugawa, "Asynchronous message-passing distributed algorithm for the global critical
 *   section problem", IJNC 9(2), 2019 (the global-CS paper):
 *   - MUTIN(l), Sec. 4, Lemma 3: per exit+entry pair, mx's messages + |Q_i| Query + |Q_i|
 *     Response1 + |Q_i| Acquire + |Q_i| Ack (Exit) + |Q_i| Release + at most |Q_i| Response2
 *     (Entry) = mx + 6|Q_i|. Lemma 4: waiting time 7 for Exit() (3 of them mx's: 2 + 1) and 2 for
 *     Entry().
 *   - k-mutual exclusion as Co-MUTIN(n − k) (Sec. 5 with Thm. 1, the complementary theorem):
 *     the same messages; entry is MUTIN's Exit() (≤ 7), exit is MUTIN's Entry() (≤ 2).
 *   - (l,k)-GCS = compose(lmin, kmex), Sec. 5, Algorithm 3, Theorem 4 (with the proofs of Lemmas
 *     3–4): messages per pair = lmin's + kmex's; waiting time 9 for both exit (lmin.Exit() 7 +
 *     kmex.Exit() 2) and entry (kmex.Entry() 7 + lmin.Entry() 2).
 *
 * Message bounds are for one exit+entry pair without contention (the sequential workload); with
 * contention Maekawa adds FAILED / INQUIRE / RELINQUISH and re-LOCKED messages. Waiting times are
 * in time units: every message takes exactly one, local computation none (unit delays).
 */

import type { GlobalAlgorithmName } from './catalog.js';

export type { AlgorithmName } from './catalog.js';

/** The mutual exclusion MUTIN uses to serialize exits (`mx`). */
export type MxName = 'maekawa' | 'ricart-agrawala';

/** A paper's bounds for one algorithm, coterie and n. */
export interface PaperBounds {
  /** Messages per exit+entry pair without contention (an upper bound; self-messages counted). */
  readonly messagesPerPair: number;
  /** Waiting time of entry, time units (unit delays, no contention). */
  readonly waitingTimeEntry: number;
  /** Waiting time of exit, time units (unit delays, no contention). */
  readonly waitingTimeExit: number;
  /** Where the bounds come from. */
  readonly source: string;
  /** The message bound as a formula, e.g. `2·(3|Q| + 6|Q|)`. */
  readonly formula: string;
}

/** What the bounds depend on. */
export interface BoundInput {
  /** The algorithm (global family). */
  readonly algorithm: GlobalAlgorithmName;
  /** Number of processes. */
  readonly n: number;
  /** The largest quorum size max |Q_i| (ignored by Ricart–Agrawala). */
  readonly maxQuorum: number;
  /** MUTIN's mutual exclusion (mutin, kmutex, gcs); default Maekawa. */
  readonly mx?: MxName;
}

const MAEKAWA = 'Maekawa 1985 (3·|Q| per CS; entry 2, exit 0 with fire-and-forget RELEASE)';
const RICART_AGRAWALA = 'Ricart & Agrawala 1981 (2(n−1) per CS; entry 2, exit 0)';

function mxBounds(mx: MxName, n: number, q: number): { messages: number; formula: string } {
  return mx === 'maekawa'
    ? { messages: 3 * q, formula: '3|Q|' }
    : { messages: 2 * (n - 1), formula: '2(n−1)' };
}

/**
 * The papers' bounds for `algorithm` over n processes with quorums of at most `maxQuorum`
 * processes (see the module comment for the derivations and citations).
 */
export function paperBounds(input: BoundInput): PaperBounds {
  const { algorithm, n, maxQuorum: q } = input;
  const mx = mxBounds(input.mx ?? 'maekawa', n, q);
  switch (algorithm) {
    case 'mutex':
      return {
        messagesPerPair: 3 * q,
        waitingTimeEntry: 2,
        waitingTimeExit: 0,
        source: MAEKAWA,
        formula: '3|Q|',
      };
    case 'ricart-agrawala':
      return {
        messagesPerPair: 2 * (n - 1),
        waitingTimeEntry: n > 1 ? 2 : 0,
        waitingTimeExit: 0,
        source: RICART_AGRAWALA,
        formula: '2(n−1)',
      };
    case 'mutin':
      return {
        messagesPerPair: mx.messages + 6 * q,
        waitingTimeEntry: 2,
        waitingTimeExit: 7,
        source: 'Kamei & Kakugawa 2019, Sec. 4, Lemma 3 (mx + 6|Q|) and Lemma 4 (exit 7, entry 2)',
        formula: `${mx.formula} + 6|Q|`,
      };
    case 'kmutex':
      return {
        messagesPerPair: mx.messages + 6 * q,
        waitingTimeEntry: 7,
        waitingTimeExit: 2,
        source: 'Kamei & Kakugawa 2019, Co-MUTIN(n−k) by Thm. 1 with Lemmas 3–4 (entry 7, exit 2)',
        formula: `${mx.formula} + 6|Q|`,
      };
    case 'gcs':
      return {
        messagesPerPair: 2 * (mx.messages + 6 * q),
        waitingTimeEntry: 9,
        waitingTimeExit: 9,
        source: 'Kamei & Kakugawa 2019, Sec. 5, Theorem 4 (lmin + kmex messages; waiting 9)',
        formula: `2·(${mx.formula} + 6|Q|)`,
      };
  }
}
