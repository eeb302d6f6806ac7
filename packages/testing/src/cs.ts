/**
 * `@critsec/testing/cs` — the CS compliance suite (DESIGN.md 4), the libp2p / Keyv way: an
 * algorithm package calls {@link csCompliance} with its factory and the test runner's `it`, and
 * gets the whole battery — CSMIC errors, safety and liveness over many seeded schedules across
 * delay models, the sequential (uncontended) workload, determinism, abort, close, and coverage
 * of rare paths. Every failure names the seed and writes a replayable trace.
 *
 * Each concern is a registrar of its own file, given one resolved setup object
 * ({@link CSComplianceContext}, from {@link complianceContext}), as model interface-compliance
 * suites are built: {@link conventionTests} (CSMIC), {@link safetyTests}, {@link livenessTests},
 * {@link determinismTests}, {@link abortTests}, {@link closeTests} and {@link coverageTests}.
 * {@link csCompliance} registers them all, in that order; a package may register a subset.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { mutexSpec } from '@critsec/core';
 * import { csCompliance } from '@critsec/testing/cs';
 * import { maekawa } from '../src/index.js';
 *
 * describe('maekawa on a 3×3 grid', () => {
 *   csCompliance({ it, name: 'maekawa-grid-9', factory: maekawa({ coterie: grid(9) }), spec: mutexSpec(9) });
 * });
 * ```
 *
 * @packageDocumentation
 */
import { abortTests } from './cs-abort.js';
import { closeTests } from './cs-close.js';
import { conventionTests } from './cs-convention.js';
import { determinismTests } from './cs-determinism.js';
import { livenessTests } from './cs-liveness.js';
import { coverageTests, safetyTests } from './cs-safety.js';
import { type CSComplianceSetup, complianceContext } from './cs-setup.js';

export { abortTests } from './cs-abort.js';
export { closeTests } from './cs-close.js';
export { conventionTests } from './cs-convention.js';
export { determinismTests } from './cs-determinism.js';
export { livenessTests } from './cs-liveness.js';
export { runSeed } from './cs-seed.js';
export { coverageTests, safetyTests } from './cs-safety.js';
export {
  type CSComplianceContext,
  type CSComplianceSetup,
  complianceContext,
  defaultDelays,
  type TestFn,
} from './cs-setup.js';
export {
  type CrashSuiteOptions,
  type CrashSweepOptions,
  type CrashSweepResult,
  crashRecoverySuite,
  crashSweep,
  defaultCrashes,
  runCrashSeed,
} from './cs-crash.js';
export { runWorkload, WorkloadFailure } from '@critsec/harness';

/**
 * Registers the compliance tests for one algorithm configuration (see the module comment): the
 * CSMIC test, safety and liveness per delay model, the sequential workload, determinism, abort
 * (unless `abort: false`), close, and coverage (when `coverage` lists rare paths). Each test is
 * independent and deterministic; failures name the seed and write a trace.
 */
export function csCompliance<Req = void>(setup: CSComplianceSetup<Req>): void {
  const ctx = complianceContext(setup);
  conventionTests(ctx);
  safetyTests(ctx);
  livenessTests(ctx);
  determinismTests(ctx);
  abortTests(ctx);
  closeTests(ctx);
  coverageTests(ctx);
}
