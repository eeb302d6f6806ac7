import { reachOf } from '@critsec/core/kit';

/**
 * The rare paths of the h-out-of-k algorithm, marked with `reach()` from `@critsec/core` so a
 * test can assert that each was taken across its seeds:
 *
 * - `h-out-of-k:cancel` an arbiter sent `cancel` (an OK fell outside the k-unit prefix of `Que`);
 * - `h-out-of-k:multi-cancel` one request made an arbiter cancel two or more OKs;
 * - `h-out-of-k:cancelled` a waiting requester gave an OK back with `cancelled`;
 * - `h-out-of-k:ok-after-cancelled` an OK arrived from an arbiter whose OK had been given back;
 * - `h-out-of-k:cancel-after-entry` a `cancel` arrived InCS and was ignored (released at exit);
 * - `h-out-of-k:grant-bypass` a request was granted at arrival while a higher one waited;
 * - `h-out-of-k:newchance-blocked` `NewChance` stopped at a waiting request that did not fit;
 * - `h-out-of-k:release-waiting` `release` withdrew a request never granted (an abort), and the
 *   requester was asked with `probe` (issue 27 §3);
 * - `h-out-of-k:stale-ignored` a message about another request was ignored.
 */
export const hOutOfKRarePaths = [
  'h-out-of-k:cancel',
  'h-out-of-k:multi-cancel',
  'h-out-of-k:cancelled',
  'h-out-of-k:ok-after-cancelled',
  'h-out-of-k:cancel-after-entry',
  'h-out-of-k:grant-bypass',
  'h-out-of-k:newchance-blocked',
  'h-out-of-k:release-waiting',
  'h-out-of-k:stale-ignored',
] as const;

/**
 * Marks of paths no honest run takes (issue 27 §3: a request set aside, a probe) and of other
 * paths the coverage tests do not require; with {@link hOutOfKRarePaths}, every mark of the package.
 */
const otherMarks = [
  'h-out-of-k:aside-admitted',
  'h-out-of-k:aside-dropped',
  'h-out-of-k:cancelled-after-release',
  'h-out-of-k:confirm-stale',
  'h-out-of-k:grant-expired',
  'h-out-of-k:expired-in-cs',
  'h-out-of-k:expired-request-again',
  'h-out-of-k:ok-again',
  'h-out-of-k:probe',
  'h-out-of-k:probe-current',
  'h-out-of-k:release-before-ok',
  'h-out-of-k:reselected',
  'h-out-of-k:request-again',
  'h-out-of-k:request-set-aside',
  'h-out-of-k:unused-released',
] as const;

/** @internal `reach()` of `@critsec/core` typed against this package's marks (a typo fails `tsc`). */
export const reach = reachOf([...hOutOfKRarePaths, ...otherMarks]);
