/*
 * The exit codes of `critsec`, the one a run's summary earns, and the error that marks a
 * deployment's configuration (`critsec node`) as the cause.
 */
import { ConfigurationError } from '@critsec/core';
import { boundsFailed, type RunSummary } from './summary.js';

/**
 * Exit codes of `critsec`: 0 success; 1 the run failed (a safety violation, a member that
 * could not finish, a deadline of `critsec node` that expired); 2 invalid command-line input;
 * 3 a paper's bound not met under the sequential workload; 78 (`EX_CONFIG` of sysexits.h) a
 * deployment's configuration that cannot be used — `critsec node`'s `cluster.json` or a file it
 * names (certificates, keys), so a supervisor can tell "fix the configuration" from "restart".
 */
export const EXIT = Object.freeze({
  /** 0: success. */
  ok: 0,
  /** 1: the run failed (a safety violation, a member that could not finish, an expired deadline of `critsec node`). */
  failed: 1,
  /** 2: invalid command-line input. */
  usage: 2,
  /** 3: a paper's bound not met under the sequential workload. */
  boundNotMet: 3,
  /** 78 (`EX_CONFIG` of sysexits.h): a deployment's configuration (or a file it names) that cannot be used. */
  config: 78,
});

/**
 * A {@link ConfigurationError} in a deployment's configuration file or a file it names (not on
 * the command line): `critsec` ends with {@link EXIT}.config. Same message, the original as `cause`.
 */
export class DeploymentConfigError extends ConfigurationError {}

/**
 * `err` as a {@link DeploymentConfigError} when it is a configuration error (code
 * `CONFIGURATION`), else `err` unchanged.
 */
export function asDeploymentConfigError(err: unknown): unknown {
  const { code, reason } = (err ?? {}) as { code?: unknown; reason?: unknown };
  // a member's store refused (missing, exists, foreign: `StoreError` of @critsec/store) is one too
  const refusedStore = code === 'STORE' && ['missing', 'exists', 'foreign'].includes(reason as string);
  if (
    !(err instanceof Error) ||
    !(code === 'CONFIGURATION' || refusedStore) ||
    err instanceof DeploymentConfigError
  )
    return err;
  return new DeploymentConfigError(err.message, { cause: err });
}

/**
 * The exit code of a run: 1 if it failed (a safety violation, a process that could not finish),
 * 3 if it was safe and live but a paper's bound checked under the sequential workload was not
 * met, 0 otherwise.
 */
export function exitCodeFor(s: RunSummary): number {
  if (!s.ok || s.safetyViolations > 0) return EXIT.failed;
  return boundsFailed(s) ? EXIT.boundNotMet : EXIT.ok;
}
