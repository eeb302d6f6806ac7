/*
 * `critsec node --config cluster.json --id i --serve <socket-path|host:port>`: the member serves
 * named locks over HTTP/JSON (`startLockMember` of @critsec/service) instead of running the
 * built-in workload, until SIGTERM or SIGINT, then shuts down gracefully (every grant released,
 * the peers told) and exits 0 within `SHUTDOWN_BOUND_MS`.
 */
import { readFileSync } from 'node:fs';
import { ConfigurationError } from '@critsec/core';
import { parseInteger } from '@critsec/core/kit';
import { formatListen, SHUTDOWN_BOUND_MS, type ShutdownReport, startLockMember } from '@critsec/service';
import { asDeploymentConfigError } from './exit-codes.js';
import type { NodeCommandOutput } from './node.js';
import { fmt } from './summary.js';

/** Options of {@link runServeCommand}. */
export interface ServeCommandOptions {
  /** A file holding the bearer token (else `CRITSEC_SERVICE_TOKEN`; required beyond loopback). */
  readonly tokenFile?: string;
  /** Comma-separated names that may be requested `shared` (the same on every member). */
  readonly shared?: string;
  /** Stops the service as SIGTERM would (default: SIGTERM or SIGINT of this process). */
  readonly stop?: AbortSignal;
}

/** The signal aborted by the first SIGTERM or SIGINT of this process (its handlers then removed). */
function processSignals(): AbortSignal {
  const ac = new AbortController();
  const on = (sig: NodeJS.Signals) => {
    process.off('SIGTERM', on);
    process.off('SIGINT', on);
    ac.abort(sig);
  };
  process.on('SIGTERM', on);
  process.on('SIGINT', on);
  return ac.signal;
}

function readToken(file: string | undefined): string | undefined {
  if (file === undefined) return process.env.CRITSEC_SERVICE_TOKEN || undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new ConfigurationError(`--token-file: cannot read ${file} (${(err as Error).message})`);
  }
}

/**
 * Runs member `idText` of `configPath` as a lock service on `serve` until `stop` (SIGTERM or
 * SIGINT), then shuts it down gracefully; resolves with what the shutdown did.
 * @throws ConfigurationError for a bad `--id` or `--token-file` (exit 2); a `DeploymentConfigError`
 *   for a configuration the service cannot run (exit 78); the listen or transport error otherwise.
 */
export async function runServeCommand(
  configPath: string,
  idText: string,
  serve: string,
  out: NodeCommandOutput,
  options: ServeCommandOptions = {},
): Promise<ShutdownReport & { ok: boolean; text: string }> {
  const id = parseInteger('id', idText, 0);
  const token = readToken(options.tokenFile);
  const stop = options.stop ?? processSignals();
  let member: Awaited<ReturnType<typeof startLockMember>>;
  try {
    member = await startLockMember({
      configPath,
      id,
      serve,
      logger: { warn: (m) => out.write(m) },
      ...(token === undefined ? {} : { token }),
      ...(options.shared === undefined ? {} : { shared: options.shared.split(',').filter((s) => s !== '') }),
    });
  } catch (err) {
    throw asDeploymentConfigError(err);
  }
  const where = formatListen(member.service.address);
  out.write(`P${id}: serving locks on ${where} (${member.description}); ${member.readiness().detail}`);
  await new Promise<void>((resolve) => {
    if (stop.aborted) resolve();
    else stop.addEventListener('abort', () => resolve(), { once: true });
  });
  out.write(
    `P${id}: ${String(stop.reason ?? 'stop')}: shutting down (at most ${SHUTDOWN_BOUND_MS / 1000} s)`,
  );
  const report = await member.shutdown();
  const still = report.peersStillRunning;
  const text = [
    `P${id}: shut down in ${fmt(report.ms / 1000)} s: every session ended, every grant released`,
    still.length === 0
      ? 'every peer had left'
      : `peers told and still running: ${still.map((p) => `P${p}`).join(', ')}`,
    ...(report.errors.length > 0 ? [`errors: ${report.errors.join('; ')}`] : []),
  ].join('; ');
  return { ...report, ok: report.errors.length === 0, text };
}
