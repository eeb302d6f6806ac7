/** A process index `i ∈ 0..n-1` (the papers' `P_i`). */
export type ProcessId = number;

/** The state of a process with respect to the critical section (global-CS paper, Def. 1). */
export type CSState = 'InCS' | 'OutCS';

/** The other state: what the complement transform (global-CS paper, Thm. 1) swaps. */
export function flipState(s: CSState): CSState {
  return s === 'InCS' ? 'OutCS' : 'InCS';
}

/** Number of processes InCS in a configuration. */
export function countInCS(states: readonly CSState[]): number {
  let c = 0;
  for (const s of states) if (s === 'InCS') c++;
  return c;
}

/** True when `n` is a positive safe integer (a valid number of processes). */
export function isValidN(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;
}
