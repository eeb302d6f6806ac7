/*
 * The exit codes of `critsec` and the one a run's summary earns.
 */
import { boundsFailed, type RunSummary } from './summary.js';

/** Exit codes of `critsec`. */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2, boundNotMet: 3 });

/**
 * The exit code of a run: 1 if it failed (a safety violation, a process that could not finish),
 * 3 if it was safe and live but a paper's bound checked under the sequential workload was not
 * met, 0 otherwise.
 */
export function exitCodeFor(s: RunSummary): number {
  if (!s.ok || s.safetyViolations > 0) return EXIT.failed;
  return boundsFailed(s) ? EXIT.boundNotMet : EXIT.ok;
}
