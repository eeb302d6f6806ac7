/**
 * The workload module of the partition test's members (`test/partition.long.test.ts`): entry,
 * hold, exit, think, again and again until the test's stop file appears; then the member
 * finishes and cycles, uncounted, until every member has. A call that does not complete within
 * the member's `callTimeoutMs` (a member cut off from its quorum) ends in the member runtime's
 * `TransportError`; this workload writes one line for it to `<dir>/call-timeouts.log` — the
 * member, the call, the error's class and code, how long the call waited, when — and goes on
 * with its next call, so the member lives through the partition and rejoins after the heal.
 * Any other error ends the member.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigurationError,
  type CritsecError,
  createRng,
  isAbortError,
  TransportError,
} from '@critsec/core';
import type { ClusterWorkloadContext } from '@critsec/cluster';

/** The file whose appearance ends the members' work. */
export const PARTITION_STOP_FILE = 'stop';
/** The call-timeout lines, one JSON object ({@link CallTimeoutRecord}) per line. */
export const CALL_TIMEOUTS_FILE = 'call-timeouts.log';

/** One call that ended in an error after the member's deadline. */
export interface CallTimeoutRecord {
  /** The member. */
  readonly p: number;
  /** Which call. */
  readonly call: 'entry' | 'exit';
  /** The error's class name and `code`. */
  readonly error: string;
  readonly code: string;
  /** From the call to its error, ms (monotonic clock). */
  readonly waitedMs: number;
  /** When the error came, wall-clock ms since the epoch (the shared log's clock). */
  readonly t: number;
}

/** `workload.settings` of this module. */
interface Settings {
  /** The test's directory (stop file, call-timeout lines), absolute. */
  readonly dir: string;
  readonly seed: number;
  /** Mean think and hold time, ms (each drawn uniformly from [0, 2·mean]). */
  readonly thinkMs: number;
  readonly holdMs: number;
}

function settingsOf(x: unknown): Settings {
  const s = x as Partial<Settings> | undefined;
  if (
    typeof s?.dir !== 'string' ||
    typeof s.seed !== 'number' ||
    typeof s.thinkMs !== 'number' ||
    typeof s.holdMs !== 'number'
  ) {
    throw new ConfigurationError(
      `partition-member: settings must be { dir, seed, thinkMs, holdMs }, got ${JSON.stringify(x)}`,
    );
  }
  return s as Settings;
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * The workload (see the module comment); resolves to the rounds begun once every member finished.
 * @throws ConfigurationError for settings that are not this module's; any error of a call other
 *   than its deadline's `TransportError`.
 */
export async function runWorkload(ctx: ClusterWorkloadContext): Promise<number> {
  const s = settingsOf(ctx.workload.settings);
  const rng = createRng(s.seed * 1_000_003 + ctx.id);
  const draw = (mean: number) => rng.next() * 2 * mean;
  const withdraw = new AbortController();
  let everyoneFinished = false;
  void ctx.allFinished.then(() => {
    everyoneFinished = true;
    withdraw.abort();
  });
  let finishing = false;
  let round = 0;
  const { signal } = withdraw;
  while (!everyoneFinished) {
    if (!finishing && existsSync(join(s.dir, PARTITION_STOP_FILE))) {
      finishing = true;
      void ctx.finish();
    }
    round++;
    let call: 'entry' | 'exit' = 'entry';
    const t0 = performance.now();
    try {
      if (ctx.cs.state === 'OutCS') {
        await ctx.entry(round, { signal, counted: !finishing });
        await sleep(draw(s.holdMs));
      }
      call = 'exit';
      await ctx.exit(round, { signal, counted: !finishing });
      await sleep(draw(s.thinkMs));
    } catch (err) {
      if (everyoneFinished && isAbortError(err)) break;
      if (!(err instanceof TransportError && err.message.includes('callTimeoutMs'))) throw err;
      const record: CallTimeoutRecord = {
        p: ctx.id,
        call,
        error: err.constructor.name,
        code: (err as CritsecError).code,
        waitedMs: Math.round(performance.now() - t0),
        t: Date.now(),
      };
      appendFileSync(join(s.dir, CALL_TIMEOUTS_FILE), `${JSON.stringify(record)}\n`);
    }
  }
  return round;
}
