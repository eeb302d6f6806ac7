/**
 * The failure detector's face towards a CS object (issue 28 §4): the processes this process
 * suspects of having failed now, and a way to hear when that set changes. A transport computes
 * it (`RootEndpoint.suspicions` of `@critsec/transport`: the TCP transport from heartbeats and
 * the graceful leave, the simulator from crash-stops and partitions) and a runner hands it to the
 * factory as `ProcessContext.suspicions`.
 */
import type { ProcessId } from './process.js';

/**
 * What a process currently suspects. **A hint, never a fact**: a suspected process may be alive
 * (a slow link, a long pause) and an unsuspected one may have crashed; an algorithm may use it to
 * choose whom to wait for (quorum reselection: `quorumAvoiding` of `@critsec/coteries`), never
 * for safety.
 */
export interface Suspicions {
  /**
   * The processes suspected now (never this process itself). The set is not changed in place:
   * a change makes a new one, so a caller may keep the one it got.
   */
  suspected(): ReadonlySet<ProcessId>;
  /**
   * Calls `fn` (synchronously, with no argument) after every change of {@link suspected}; returns
   * the unsubscribe function. What `fn` throws is reported by the source, never to its caller.
   */
  onChange(fn: () => void): () => void;
}
