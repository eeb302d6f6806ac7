/**
 * The coverage marks of `@critsec/local-cs` (`reach()` of `@critsec/core`), typed so a misspelt
 * label fails the type check: the arbiter's marks under each arbiter's label (LMUTIN's, and
 * LKCS's MUTIN and MUTEX arbiters), and LMUTIN's and LKCS's own. The rare-path lists the coverage
 * tests assert (`lmutinRarePaths`, `lkcsRarePaths`) are checked against {@link Mark}. Internal.
 */
import { reach as coreReach } from '@critsec/core/kit';

/** The label an {@link Arbiter} marks under: LMUTIN's arbiter, or one of LKCS's two. */
export type ArbiterLabel = 'lmutin' | 'lkcs-MUTIN' | 'lkcs-MUTEX';

/** The arbiter's marks (Algorithms 2, 3 and 5), each under its arbiter's label. */
type ArbiterMark =
  `${ArbiterLabel}:${'preempt' | 'cancel-pending' | 'relinquished' | 'regrant-relinquisher' | 'sidetrack-grant' | 'request-set-aside' | 'aside-admitted'}`;

/** Every coverage mark of the package. */
export type Mark =
  | ArbiterMark
  | 'lmutin:grant-returned'
  | 'lmutin:preempt-ignored'
  | 'lmutin:relinquish'
  | 'lkcs:grant-returned'
  | 'lkcs:nominee-completed'
  | 'lkcs:nomination-refused'
  | 'lkcs:preempt-ignored'
  | 'lkcs:relinquish'
  | 'lkcs:stale-grant'
  | 'lkcs:trigger'
  | 'lkcs:trigger-candidate'
  | 'lkcs:trigger-ignored'
  | 'lkcs:trigger-refused'
  | 'lkcs:trigger-nomination';

/** `reach()` of `@critsec/core` typed against {@link Mark}. */
export const reach: (label: Mark) => void = coreReach;
